#include "gathering_vfs.hpp"

#include <sqlite3.h>

#include "gathering_file.hpp"

namespace tilecrush::storage::detail {
namespace {

sqlite3_vfs* real_vfs = nullptr;
sqlite3_vfs gathering_vfs;

int x_open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  return GatheringFile::open(real_vfs, name, file, flags, out_flags);
}

// The rest of the VFS is the default one's.
int x_delete(sqlite3_vfs*, const char* name, int sync_dir) {
  return real_vfs->xDelete(real_vfs, name, sync_dir);
}
int x_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return real_vfs->xAccess(real_vfs, name, flags, out);
}
int x_full_pathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return real_vfs->xFullPathname(real_vfs, name, size, out);
}
void* x_dl_open(sqlite3_vfs*, const char* name) {
  return real_vfs->xDlOpen(real_vfs, name);
}
void x_dl_error(sqlite3_vfs*, int size, char* out) {
  real_vfs->xDlError(real_vfs, size, out);
}
void (*x_dl_sym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return real_vfs->xDlSym(real_vfs, handle, symbol);
}
void x_dl_close(sqlite3_vfs*, void* handle) {
  real_vfs->xDlClose(real_vfs, handle);
}
int x_randomness(sqlite3_vfs*, int size, char* out) {
  return real_vfs->xRandomness(real_vfs, size, out);
}
int x_sleep(sqlite3_vfs*, int microseconds) {
  return real_vfs->xSleep(real_vfs, microseconds);
}
int x_current_time(sqlite3_vfs*, double* out) {
  return real_vfs->xCurrentTime(real_vfs, out);
}
int x_get_last_error(sqlite3_vfs*, int size, char* out) {
  return real_vfs->xGetLastError(real_vfs, size, out);
}
int x_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) {
  return real_vfs->xCurrentTimeInt64(real_vfs, out);
}
int x_set_system_call(sqlite3_vfs*, const char* name, sqlite3_syscall_ptr call) {
  return real_vfs->xSetSystemCall(real_vfs, name, call);
}
sqlite3_syscall_ptr x_get_system_call(sqlite3_vfs*, const char* name) {
  return real_vfs->xGetSystemCall(real_vfs, name);
}
const char* x_next_system_call(sqlite3_vfs*, const char* name) {
  return real_vfs->xNextSystemCall(real_vfs, name);
}

const char* register_vfs() {
  real_vfs = sqlite3_vfs_find(nullptr);
  // The default VFS of every platform SQLite ships has version 3 (the
  // system-call methods this forwards).
  if (real_vfs == nullptr || real_vfs->iVersion < 3) return nullptr;
  gathering_vfs = sqlite3_vfs{3,
                              GatheringFile::size_for(real_vfs->szOsFile),
                              real_vfs->mxPathname,
                              nullptr,
                              "tilecrush-gathering",
                              nullptr,
                              x_open,
                              x_delete,
                              x_access,
                              x_full_pathname,
                              x_dl_open,
                              x_dl_error,
                              x_dl_sym,
                              x_dl_close,
                              x_randomness,
                              x_sleep,
                              x_current_time,
                              x_get_last_error,
                              x_current_time_int64,
                              x_set_system_call,
                              x_get_system_call,
                              x_next_system_call};
  if (sqlite3_vfs_register(&gathering_vfs, 0) != SQLITE_OK) return nullptr;
  return gathering_vfs.zName;
}

}  // namespace

const char* GatheringVfs::name() {
  static const char* const registered = register_vfs();
  return registered;
}

}  // namespace tilecrush::storage::detail
