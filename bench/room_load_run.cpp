#include "room_load_run.hpp"

#include <iostream>

namespace tilecrush::bench {

void RoomLoadStats::error(const std::string& kind, const std::string& detail) {
  std::lock_guard lock(mutex_);
  ++errors_[kind];
  if (printed_++ < 10) std::cerr << kind << ": " << detail << "\n";
}

std::map<std::string, long> RoomLoadStats::errors() const {
  std::lock_guard lock(mutex_);
  return errors_;
}

}  // namespace tilecrush::bench
