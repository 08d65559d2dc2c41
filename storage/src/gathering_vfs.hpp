// A VFS over SQLite's default one that writes a commit's WAL frames to the
// file in one system call instead of two a page.
//
// SQLite writes each WAL frame as two writes, its 24-byte header and then
// its page, so a commit of a batch that dirtied a hundred pages makes two
// hundred pwrite calls; on the machines measured (docs/capacity.md, "The
// SQLite writer") each call cost more in entering and leaving the kernel
// than in copying its page. This VFS gathers a WAL's consecutive frame
// writes in memory and writes them in one call.
//
// What it guarantees, so that durability and what readers see are those
// of the default VFS:
// - the frames written so far are in the file when the write of a commit
//   frame's page returns (a frame header whose "database size" field is
//   not 0 marks one; the WAL file format). SQLite makes a commit visible to
//   other connections (its wal-index header) only after that, and syncs
//   (synchronous = FULL) only after that, so a commit acknowledged is a
//   commit in the file exactly as without this VFS;
// - they are also in the file before any other call on the WAL file
//   (a read, a sync, a truncate, its size, a lock, a close...), so SQLite
//   never reads back a frame that is only in memory;
// - any write that is not a new frame's header or its page (the WAL's own
//   header, a frame header SQLite rewrites below the frames' end to fix a
//   checksum, a page written over in place), or is not contiguous with
//   what is gathered, first writes out what is gathered and then goes to
//   the file directly; what is gathered is written out at
//   GatheringFile::kLimit bytes (gathering_file.hpp: the files' methods);
// - a WAL and its database file (both opened here) know each other: a
//   call on the database file (a lock taken or released, the barrier
//   SQLite puts between the two copies of the wal-index header) first
//   writes out the WAL's gathered frames too. The rules above already
//   have; this holds even where SQLite's writes differ from them.
// A failed write of gathered frames fails the SQLite call that made it
// (SQLITE_IOERR_WRITE or SQLITE_FULL, as the default VFS would), which
// rolls the transaction back: its frames were never made visible.
//
// Files other than a WAL (the database, journals, temporary files) pass
// straight through.
//
// Thread safety: name() may be called from any thread (the VFS registers
// once). A file is used as SQLite uses a connection's files: one thread at
// a time.
#pragma once

namespace tilecrush::storage::detail {

class GatheringVfs {
 public:
  // The registered VFS's name for sqlite3_open_v2, or nullptr when it could
  // not be registered (SQLite's default VFS is then used: slower, nothing
  // else).
  static const char* name();
};

}  // namespace tilecrush::storage::detail
