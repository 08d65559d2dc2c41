#include "net/connection_limits.hpp"

namespace tilecrush::server {

std::shared_ptr<ConnectionLimits::Ticket> ConnectionLimits::try_acquire(
    const std::string& address) {
  {
    std::lock_guard lock(mutex_);
    std::size_t& count = per_address_[address];
    if (total_ >= max_total_ || count >= max_per_address_) {
      if (count == 0) per_address_.erase(address);
      return nullptr;
    }
    ++count;
    ++total_;
  }
  return std::make_shared<Ticket>(shared_from_this(), address);
}

std::size_t ConnectionLimits::open() const {
  std::lock_guard lock(mutex_);
  return total_;
}

std::size_t ConnectionLimits::addresses() const {
  std::lock_guard lock(mutex_);
  return per_address_.size();
}

void ConnectionLimits::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  --total_;
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second == 0) per_address_.erase(it);
}

}  // namespace tilecrush::server
