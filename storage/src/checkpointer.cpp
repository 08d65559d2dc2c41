#include "checkpointer.hpp"

#include <pthread.h>

#include <chrono>

#include "tilecrush/storage/error.hpp"

namespace tilecrush::storage::detail {

Checkpointer::Checkpointer(const std::string& path, int pages)
    : connection_(path, OpenMode::read_write, std::chrono::milliseconds(1000)),
      pages_(pages < 1 ? 1 : pages),
      thread_([this] { loop(); }) {}

Checkpointer::~Checkpointer() {
  stop();
}

void Checkpointer::on_commit(int wal_pages, SqliteConnection& writer) {
  if (wal_pages >= pages_ * kForceFactor) {
    std::lock_guard run(running_);
    writer.checkpoint_and_restart();
    return;
  }
  if (wal_pages >= pages_) {
    {
      std::lock_guard lock(mutex_);
      wanted_ = true;
    }
    wake_.notify_one();
  }
}

void Checkpointer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

std::uint64_t Checkpointer::checkpoints() const {
  std::lock_guard lock(mutex_);
  return checkpoints_;
}

void Checkpointer::loop() {
  pthread_setname_np(pthread_self(), "tc-checkpoint");
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return wanted_ || stopping_; });
    if (stopping_) return;
    wanted_ = false;
    lock.unlock();
    try {
      std::lock_guard run(running_);
      connection_.execute("PRAGMA wal_checkpoint(PASSIVE)");
    } catch (const StorageError&) {
      // Busy or failing: the WAL keeps the data, and the writer checkpoints
      // itself once the file grows past the forcing limit.
    }
    lock.lock();
    ++checkpoints_;
  }
}

}  // namespace tilecrush::storage::detail
