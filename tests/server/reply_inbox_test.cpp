// A thread's answers gathered for a burst (ReplyInbox::begin_gathering):
// nothing reaches a network thread until the burst ends, then each inbox
// gets all of its share, in order, in one drain.
#include "net/reply_inbox.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "net/reply.hpp"

namespace tilecrush::testing {
namespace {

using server::ReplyInbox;
namespace net = server::net;

// A reply target on one io_context, recording what its slots are filled with.
class RecordingTarget final : public server::ReplyTarget {
 public:
  explicit RecordingTarget(net::io_context& ioc) : executor_(ioc.get_executor()) {
    inbox_ = &ReplyInbox::of(ioc);
  }
  net::any_io_executor executor() override { return executor_; }
  std::vector<std::pair<std::uint64_t, std::optional<std::string>>> filled;

 protected:
  void fill_slot(std::uint64_t slot, std::optional<std::string> message) override {
    filled.emplace_back(slot, std::move(message));
  }

 private:
  net::any_io_executor executor_;
};

// Runs what is ready on `ioc`, as its network thread would; the number of
// handlers run (a context that ran out of work is restarted first).
std::size_t run_ready(net::io_context& ioc) {
  ioc.restart();
  return ioc.poll();
}

// Sends `message` into `slot` of `target` the way a storage callback does.
void send_reply(const std::shared_ptr<RecordingTarget>& target, std::uint64_t slot,
                std::string message) {
  server::Reply(target, slot).send(std::move(message));
}

TEST(ReplyInbox, AnswersPostedOneByOneWakeTheThreadForEachDrainBetweenThem) {
  net::io_context ioc;
  auto target = std::make_shared<RecordingTarget>(ioc);
  std::thread([&] {
    send_reply(target, 0, "a");
    run_ready(ioc);  // the network thread drains between two answers
    send_reply(target, 1, "b");
  }).join();
  EXPECT_EQ(run_ready(ioc), 1u);
  ASSERT_EQ(target->filled.size(), 2u);
}

TEST(ReplyInbox, AGatheredBurstReachesEachThreadInOneDrainInOrder) {
  net::io_context first_ioc;
  net::io_context second_ioc;
  auto first = std::make_shared<RecordingTarget>(first_ioc);
  auto second = std::make_shared<RecordingTarget>(second_ioc);
  std::size_t drains_during = 0;
  std::thread writer([&] {
    ReplyInbox::begin_gathering();
    for (std::uint64_t slot = 0; slot < 6; ++slot) {
      send_reply(first, slot, "first " + std::to_string(slot));
      if (slot % 2 == 0) send_reply(second, slot / 2, "second " + std::to_string(slot / 2));
      // The network threads find nothing to do while the burst lasts.
      drains_during += run_ready(first_ioc) + run_ready(second_ioc);
    }
    server::Reply(first, 6);  // released unsent: a slot filled with nothing
    ReplyInbox::end_gathering();
  });
  writer.join();
  EXPECT_EQ(drains_during, 0u);
  EXPECT_TRUE(first->filled.empty());
  EXPECT_EQ(run_ready(first_ioc), 1u);
  EXPECT_EQ(run_ready(second_ioc), 1u);
  ASSERT_EQ(first->filled.size(), 7u);
  for (std::uint64_t slot = 0; slot < 6; ++slot) {
    EXPECT_EQ(first->filled[slot].first, slot);
    EXPECT_EQ(first->filled[slot].second, "first " + std::to_string(slot));
  }
  EXPECT_EQ(first->filled[6].first, 6u);
  EXPECT_FALSE(first->filled[6].second.has_value());
  ASSERT_EQ(second->filled.size(), 3u);
  EXPECT_EQ(second->filled[2].second, "second 2");
}

TEST(ReplyInbox, GatheringIsTheCallingThreadsOnly) {
  net::io_context ioc;
  auto target = std::make_shared<RecordingTarget>(ioc);
  ReplyInbox::begin_gathering();  // on this thread, not on the one below
  std::thread([&] { send_reply(target, 0, "now"); }).join();
  EXPECT_EQ(run_ready(ioc), 1u);
  ASSERT_EQ(target->filled.size(), 1u);
  send_reply(target, 1, "later");
  EXPECT_EQ(run_ready(ioc), 0u);
  ReplyInbox::end_gathering();
  EXPECT_EQ(run_ready(ioc), 1u);
  ASSERT_EQ(target->filled.size(), 2u);
  EXPECT_EQ(target->filled[1].second, "later");
}

}  // namespace
}  // namespace tilecrush::testing
