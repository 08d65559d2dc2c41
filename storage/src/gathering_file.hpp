// One file opened through GatheringVfs (gathering_vfs.hpp says what it
// guarantees): the default VFS's file, with a WAL's new frames gathered
// in memory and written out by the rules stated there. SQLite allocates
// it (size_for() bytes) and open() makes it; each of its methods writes
// out what is gathered where the rules say, then calls the default VFS's
// file.
//
// Thread safety: one thread at a time, as SQLite uses a connection's files.
#pragma once

#include <sqlite3.h>

#include <cstddef>

namespace tilecrush::storage::detail {

class GatheringFile {
 public:
  // At most this many bytes are gathered before they are written out: one
  // write of the default VFS on Unix writes at most 128 KiB - 1 bytes (its
  // seekAndWrite masks the size with 0x1ffff, and a size that is a whole
  // multiple of 128 KiB fails as a full disk), so a write out stays below.
  static constexpr std::size_t kLimit = 120 * 1024;
  static_assert(kLimit < 0x20000);

  // The bytes SQLite allocates for one, over a default VFS whose files take
  // `real_size`.
  static int size_for(int real_size);
  // sqlite3_vfs::xOpen through `real`: `file` holds size_for() bytes.
  static int open(sqlite3_vfs* real, const char* name, sqlite3_file* file, int flags,
                  int* out_flags);
};

}  // namespace tilecrush::storage::detail
