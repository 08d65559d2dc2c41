#include "reader_pool.hpp"

#include <algorithm>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

ReaderPool::ReaderPool(const std::function<std::unique_ptr<Connection>()>& open, std::size_t size) {
  size = std::max<std::size_t>(size, 1);
  for (std::size_t i = 0; i < size; ++i) idle_.push_back(open());
}

ReaderPool::Lease ReaderPool::acquire() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return closed_ || !idle_.empty(); });
  if (closed_) throw StorageError("database is closed");
  auto connection = std::move(idle_.back());
  idle_.pop_back();
  ++lent_;
  return Lease(*this, std::move(connection));
}

void ReaderPool::give_back(std::unique_ptr<Connection> connection) {
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(connection));
    --lent_;
  }
  changed_.notify_all();
}

void ReaderPool::close() {
  std::vector<std::unique_ptr<Connection>> closing;
  {
    std::unique_lock lock(mutex_);
    closed_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return lent_ == 0; });
    closing.swap(idle_);
  }
}

}  // namespace tilecrush::storage::detail
