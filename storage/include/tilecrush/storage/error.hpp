// The one exception storage throws: a fault of the database itself.
#pragma once

#include <stdexcept>
#include <string>

namespace tilecrush::storage {

// Thrown when the database cannot be used: it cannot be opened, its schema is
// newer than this build, a disk or I/O error, a corrupt file, a read after
// close(). Never thrown for a missing row or a refused write (a name taken, an
// unknown game): those are values (std::optional, WriteResult).
class StorageError : public std::runtime_error {
 public:
  explicit StorageError(const std::string& what, int sqlite_code = 0)
      : std::runtime_error(what), sqlite_code_(sqlite_code) {}

  // SQLite's extended result code; 0 when the fault did not come from SQLite.
  int sqlite_code() const noexcept { return sqlite_code_; }

 private:
  int sqlite_code_;
};

}  // namespace tilecrush::storage
