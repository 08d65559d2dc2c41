#include "gathering_file.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tilecrush::storage::detail {
namespace {

// A WAL frame's header (the WAL file format): its bytes 4-7 hold, for a
// commit frame, the database's size in pages after the commit, else 0.
constexpr int kFrameHeader = 24;

// What SQLite allocates for each open file (szOsFile): this, then the
// default VFS's own file right after it.
struct File {
  sqlite3_file base;   // first: SQLite sees this
  sqlite3_file* real;  // the default VFS's file
  bool wal;
  // A WAL: what is gathered (buffer[0] is at file offset `start`), and
  // where it stands in the frame it is writing.
  char* buffer;
  std::size_t gathered;
  sqlite3_int64 start;
  bool page_next;    // the last write gathered was a frame's header
  bool commit_page;  // ... of a commit frame
  // Where the frames written so far end: a frame header below it is one
  // SQLite rewrites (a checksum, with no page after it), written at once.
  sqlite3_int64 end;
  // A WAL and its database file know each other (both opened here): a lock
  // taken or released on the database writes out its WAL's gathered frames
  // first, as a commit's barrier does.
  File* partner;
};
// The default VFS's file follows a File in the same allocation.
static_assert(sizeof(File) % 8 == 0);

const std::array<sqlite3_io_methods, 3>& methods();

File* file_of(sqlite3_file* f) {
  return reinterpret_cast<File*>(f);
}
const sqlite3_io_methods* real_methods(File* f) {
  return f->real->pMethods;
}

// Writes out what `wal` gathered; what could not be written is dropped
// (SQLite is told, and rolls the transaction back).
int write_out(File* wal) {
  if (wal == nullptr || wal->gathered == 0) return SQLITE_OK;
  const int rc = real_methods(wal)->xWrite(wal->real, wal->buffer, static_cast<int>(wal->gathered),
                                           wal->start);
  wal->gathered = 0;
  wal->page_next = false;
  wal->commit_page = false;
  return rc;
}

// Before any call other than a gathered write: the WAL's frames in the file.
int settle(File* f) {
  return write_out(f->wal ? f : f->partner);
}

int x_close(sqlite3_file* file) {
  File* f = file_of(file);
  const int settled = settle(f);
  if (f->partner != nullptr) f->partner->partner = nullptr;
  f->partner = nullptr;
  const int rc = real_methods(f)->xClose(f->real);
  std::free(f->buffer);
  f->buffer = nullptr;
  return settled != SQLITE_OK ? settled : rc;
}

int x_read(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xRead(f->real, data, amount, offset);
}

std::uint32_t big_endian_32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
         std::uint32_t(p[3]);
}

int x_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  File* f = file_of(file);
  if (!f->wal) {
    if (const int rc = settle(f); rc != SQLITE_OK) return rc;
    return real_methods(f)->xWrite(f->real, data, amount, offset);
  }
  // The WAL starts over with its own header at offset 0.
  if (offset == 0) f->end = 0;
  const bool follows = f->gathered > 0 && offset == f->start + sqlite3_int64(f->gathered);
  const bool header =
      amount == kFrameHeader && !f->page_next && offset >= f->end && (f->gathered == 0 || follows);
  const bool page = amount > kFrameHeader && f->page_next && follows;
  const bool fits = f->gathered + std::size_t(amount) <= GatheringFile::kLimit;
  if (header && !fits) {
    if (const int rc = write_out(f); rc != SQLITE_OK) return rc;
  }
  if (f->buffer == nullptr && (header || page)) {
    f->buffer = static_cast<char*>(std::malloc(GatheringFile::kLimit));
  }
  if (offset + amount > f->end) f->end = offset + amount;
  if (f->buffer == nullptr || !(header || (page && fits))) {
    // Not a frame write this gathers: what is gathered first, then this.
    if (const int rc = write_out(f); rc != SQLITE_OK) return rc;
    return real_methods(f)->xWrite(f->real, data, amount, offset);
  }
  if (f->gathered == 0) f->start = offset;
  std::memcpy(f->buffer + f->gathered, data, std::size_t(amount));
  f->gathered += std::size_t(amount);
  if (header) {
    f->page_next = true;
    f->commit_page = big_endian_32(static_cast<const unsigned char*>(data) + 4) != 0;
    return SQLITE_OK;
  }
  f->page_next = false;
  // A commit frame is complete: the commit goes to the file now.
  return f->commit_page ? write_out(f) : SQLITE_OK;
}

int x_truncate(sqlite3_file* file, sqlite3_int64 size) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  if (size < f->end) f->end = size;
  return real_methods(f)->xTruncate(f->real, size);
}

int x_sync(sqlite3_file* file, int flags) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xSync(f->real, flags);
}

int x_file_size(sqlite3_file* file, sqlite3_int64* size) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xFileSize(f->real, size);
}

int x_lock(sqlite3_file* file, int level) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xLock(f->real, level);
}

// Releasing a lock goes ahead whatever the write out says: what could not
// be written is frames of a transaction that is ending without them.
int x_unlock(sqlite3_file* file, int level) {
  File* f = file_of(file);
  (void)settle(f);
  return real_methods(f)->xUnlock(f->real, level);
}

int x_check_reserved_lock(sqlite3_file* file, int* out) {
  File* f = file_of(file);
  return real_methods(f)->xCheckReservedLock(f->real, out);
}

int x_file_control(sqlite3_file* file, int op, void* arg) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xFileControl(f->real, op, arg);
}

int x_sector_size(sqlite3_file* file) {
  File* f = file_of(file);
  return real_methods(f)->xSectorSize(f->real);
}

int x_device_characteristics(sqlite3_file* file) {
  File* f = file_of(file);
  return real_methods(f)->xDeviceCharacteristics(f->real);
}

int x_shm_map(sqlite3_file* file, int page, int size, int extend, void volatile** out) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xShmMap(f->real, page, size, extend, out);
}

int x_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  File* f = file_of(file);
  const int settled = settle(f);
  if (settled != SQLITE_OK && (flags & SQLITE_SHM_LOCK) != 0) return settled;
  return real_methods(f)->xShmLock(f->real, offset, n, flags);
}

// SQLite calls this between the two copies of the wal-index header it
// writes to make a commit visible: the commit frame was written out
// already (x_write), so nothing is gathered here; written out anyway, to
// rely on that alone.
void x_shm_barrier(sqlite3_file* file) {
  File* f = file_of(file);
  (void)settle(f);
  real_methods(f)->xShmBarrier(f->real);
}

int x_shm_unmap(sqlite3_file* file, int delete_flag) {
  File* f = file_of(file);
  (void)settle(f);
  return real_methods(f)->xShmUnmap(f->real, delete_flag);
}

int x_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  File* f = file_of(file);
  if (const int rc = settle(f); rc != SQLITE_OK) return rc;
  return real_methods(f)->xFetch(f->real, offset, amount, out);
}

int x_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  File* f = file_of(file);
  return real_methods(f)->xUnfetch(f->real, offset, page);
}

// The same functions for files of versions 1, 2 and 3 (SQLite calls only
// what a file's version has).
const std::array<sqlite3_io_methods, 3>& methods() {
  static const std::array<sqlite3_io_methods, 3> all = [] {
    std::array<sqlite3_io_methods, 3> all{};
    for (int i = 0; i < 3; ++i) {
      all[i] = sqlite3_io_methods{i + 1,
                                  x_close,
                                  x_read,
                                  x_write,
                                  x_truncate,
                                  x_sync,
                                  x_file_size,
                                  x_lock,
                                  x_unlock,
                                  x_check_reserved_lock,
                                  x_file_control,
                                  x_sector_size,
                                  x_device_characteristics,
                                  x_shm_map,
                                  x_shm_lock,
                                  x_shm_barrier,
                                  x_shm_unmap,
                                  x_fetch,
                                  x_unfetch};
    }
    return all;
  }();
  return all;
}

bool ours(const sqlite3_file* file) {
  if (file == nullptr || file->pMethods == nullptr) return false;
  for (const sqlite3_io_methods& m : methods()) {
    if (file->pMethods == &m) return true;
  }
  return false;
}

}  // namespace

int GatheringFile::size_for(int real_size) {
  return static_cast<int>(sizeof(File)) + real_size;
}

int GatheringFile::open(sqlite3_vfs* real, const char* name, sqlite3_file* file, int flags,
                        int* out_flags) {
  File* f = file_of(file);
  f->base.pMethods = nullptr;
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  f->wal = (flags & SQLITE_OPEN_WAL) != 0;
  f->buffer = nullptr;
  f->gathered = 0;
  f->start = 0;
  f->page_next = false;
  f->commit_page = false;
  f->end = 0;
  f->partner = nullptr;
  const int rc = real->xOpen(real, name, f->real, flags, out_flags);
  // SQLite closes a file whose methods are set, even after a failed open.
  if (f->real->pMethods == nullptr) return rc;
  const int version = f->real->pMethods->iVersion;
  f->base.pMethods = &methods()[version < 1 ? 0 : version > 3 ? 2 : version - 1];
  if (rc == SQLITE_OK && f->wal && name != nullptr) {
    sqlite3_file* database = sqlite3_database_file_object(name);
    if (ours(database)) {
      f->partner = file_of(database);
      f->partner->partner = f;
    }
  }
  return rc;
}

}  // namespace tilecrush::storage::detail
