#include "message_log.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <unordered_map>

namespace tilecrush::testing {
namespace {

using nlohmann::json;

constexpr std::size_t kPerKindBeforeShapesOnly = 2000;

// Key paths and value kinds, array elements folded together: two messages of
// one shape differ only in values.
void add_shape(const json& value, const std::string& path, std::set<std::string>& out) {
  out.insert(path + ":" + std::string(value.type_name()));
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) add_shape(member, path + "." + key, out);
  } else if (value.is_array()) {
    for (const auto& element : value) add_shape(element, path + "[]", out);
  }
}

std::string shape_of(const json& value) {
  std::set<std::string> paths;
  add_shape(value, "", paths);
  std::string shape;
  for (const auto& p : paths) shape += p + "\n";
  return shape;
}

class MessageLog {
 public:
  static MessageLog& instance() {
    static MessageLog log;
    return log;
  }

  void record(const std::string& kind_key, json entry, const json& shape_source) {
    if (!out_.is_open()) return;
    const std::lock_guard lock(mutex_);
    std::size_t& seen = counts_[kind_key];
    ++seen;
    if (seen > kPerKindBeforeShapesOnly &&
        !shapes_.insert(kind_key + shape_of(shape_source)).second) {
      return;
    }
    if (seen <= kPerKindBeforeShapesOnly) shapes_.insert(kind_key + shape_of(shape_source));
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    entry["test"] = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
    out_ << entry.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    out_.flush();
  }

 private:
  MessageLog() {
    const char* dir = std::getenv("TILECRUSH_MESSAGE_LOG");
    if (dir == nullptr || *dir == '\0') return;
    out_.open(std::string(dir) + "/" + std::to_string(::getpid()) + ".jsonl", std::ios::app);
  }

  std::mutex mutex_;
  std::ofstream out_;
  std::unordered_map<std::string, std::size_t> counts_;
  std::set<std::string> shapes_;
};

}  // namespace

void record_ws_message(const json& message) {
  const std::string type =
      message.is_object() && message.contains("type") && message["type"].is_string()
          ? message["type"].get<std::string>()
          : "";
  MessageLog::instance().record("ws " + type, json{{"kind", "ws"}, {"message", message}}, message);
}

void record_http_answer(std::string_view method, std::string_view target, unsigned status,
                        std::string_view content_type, std::string_view body) {
  json parsed = nullptr;
  if (content_type.starts_with("application/json")) {
    parsed = json::parse(body, nullptr, false);
    // Not JSON although it says so: recorded as text so that the check fails.
    if (parsed.is_discarded()) parsed = std::string(body);
  }
  const std::string_view path = target.substr(0, target.find('?'));
  json entry{{"kind", "http"},
             {"method", method},
             {"target", target},
             {"status", status},
             {"content_type", content_type},
             {"body", parsed}};
  MessageLog::instance().record("http " + std::string(method) + " " + std::string(path),
                                std::move(entry), parsed);
}

}  // namespace tilecrush::testing
