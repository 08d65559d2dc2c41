// Caps on open TCP connections, overall and per remote address.
//
// Thread safety: thread-safe (one mutex). A Ticket releases its place when
// destroyed, on any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tilecrush::server {

class ConnectionLimits : public std::enable_shared_from_this<ConnectionLimits> {
 public:
  ConnectionLimits(std::size_t max_total, std::size_t max_per_address)
      : max_total_(max_total), max_per_address_(max_per_address) {}

  class Ticket {
   public:
    Ticket(std::shared_ptr<ConnectionLimits> owner, std::string address)
        : owner_(std::move(owner)), address_(std::move(address)) {}
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket() { owner_->release(address_); }

   private:
    std::shared_ptr<ConnectionLimits> owner_;
    std::string address_;
  };

  // A ticket, or null when a cap is reached.
  std::shared_ptr<Ticket> try_acquire(const std::string& address);
  std::size_t open() const;
  // Addresses with at least one open connection (none are kept beyond that).
  std::size_t addresses() const;

 private:
  void release(const std::string& address);

  const std::size_t max_total_;
  const std::size_t max_per_address_;
  mutable std::mutex mutex_;
  std::size_t total_ = 0;
  std::unordered_map<std::string, std::size_t> per_address_;
};

}  // namespace tilecrush::server
