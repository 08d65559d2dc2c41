// The prepared statements a connection keeps, by their SQL text: each is
// made on first use and kept until clear() or the cache's end (both
// backends' Connection::query()).
//
// Thread safety: none; it belongs to one connection (see Connection).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tilecrush::storage::detail {

template <class S>
class StatementCache {
 public:
  // The statement for `sql`, made by `make()` (a std::unique_ptr<S>) the
  // first time.
  template <class Make>
  S& get(std::string_view sql, Make&& make) {
    auto it = statements_.find(sql);
    if (it == statements_.end()) it = statements_.emplace(std::string(sql), make()).first;
    return *it->second;
  }
  // Ends every statement (before the session they were prepared in ends).
  void clear() noexcept { statements_.clear(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };
  std::unordered_map<std::string, std::unique_ptr<S>, Hash, std::equal_to<>> statements_;
};

}  // namespace tilecrush::storage::detail
