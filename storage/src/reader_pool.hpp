// A fixed set of read-only connections, each lent to one thread at a time.
//
// Thread safety: acquire() and close() may be called from any thread; a
// Lease and its connection belong to the thread that acquired it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "connection.hpp"

namespace tilecrush::storage::detail {

class ReaderPool {
 public:
  class Lease {
   public:
    Lease(ReaderPool& pool, std::unique_ptr<Connection> connection)
        : pool_(&pool), connection_(std::move(connection)) {}
    ~Lease() { pool_->give_back(std::move(connection_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    Connection& operator*() const { return *connection_; }
    Connection* operator->() const { return connection_.get(); }

   private:
    ReaderPool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  // Opens `size` (at least 1) read-only connections with `open`; throws
  // StorageError.
  ReaderPool(const std::function<std::unique_ptr<Connection>()>& open, std::size_t size);

  // Waits for a free connection. Throws StorageError after close().
  Lease acquire();
  // Refuses new leases, waits for the lent ones, closes every connection.
  void close();

 private:
  void give_back(std::unique_ptr<Connection> connection);

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::size_t lent_ = 0;
  bool closed_ = false;
};

}  // namespace tilecrush::storage::detail
