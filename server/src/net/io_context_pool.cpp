#include "net/io_context_pool.hpp"

#include <pthread.h>

namespace tilecrush::server {

IoContextPool::IoContextPool(unsigned threads) {
  const unsigned n = threads == 0 ? 1 : threads;
  for (unsigned i = 0; i < n; ++i) {
    // Hint 1: a single thread runs each context (posts from other threads
    // remain safe).
    contexts_.push_back(std::make_unique<net::io_context>(1));
    guards_.emplace_back(net::make_work_guard(*contexts_.back()));
  }
}

IoContextPool::~IoContextPool() {
  stop();
}

net::io_context& IoContextPool::next() {
  return *contexts_[next_.fetch_add(1, std::memory_order_relaxed) % contexts_.size()];
}

void IoContextPool::run() {
  for (auto& context : contexts_) {
    threads_.emplace_back([&context]() {
      // Named for per-thread CPU figures (top -H, bench/peer_compare.sh).
      pthread_setname_np(pthread_self(), "tc-net");
      context->run();
    });
  }
}

void IoContextPool::stop() {
  guards_.clear();
  for (auto& context : contexts_) context->stop();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace tilecrush::server
