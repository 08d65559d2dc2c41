// fuzz_http: one request target per input, through everything the server
// does with it before routing:
//   - parse_target against an independent parse written from the contract in
//     http_query.hpp (same path, segments and query pairs, or both refuse),
//     and re-encoding what parsed gives the same target again;
//   - int_param / string_param on every name the API reads, checked against
//     their contract, and error bodies that dump to valid JSON;
//   - StaticFiles::resolve on a temporary root holding files, a dotfile and
//     symlinks to a file, a folder and /etc outside it: a resolved path is
//     always one of the root's own regular files.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_check.hpp"
#include "net/static_files.hpp"
#include "percent_encode.hpp"
#include "tilecrush/protocol/http_query.hpp"

namespace tilecrush::fuzz {
namespace {

namespace fs = std::filesystem;
using protocol::RequestTarget;

struct Site {
  fs::path base;
  std::optional<server::StaticFiles> files;
  std::set<fs::path> servable;  // canonical paths resolve() may return
};

Site& site() {
  static Site s;
  return s;
}

void write_file(const fs::path& p, std::string_view text) {
  std::ofstream(p) << text;
}

void make_site() {
  Site& s = site();
  s.base = fs::temp_directory_path() / ("tilecrush-fuzz-http-" + std::to_string(::getpid()));
  fs::remove_all(s.base);
  const fs::path root = s.base / "root";
  const fs::path outside = s.base / "outside";
  fs::create_directories(root / "sub");
  fs::create_directories(outside);
  write_file(root / "index.html", "<!doctype html>");
  write_file(root / "app.js", "1");
  write_file(root / "sub" / "index.html", "<p>");
  write_file(root / "sub" / "style.css", "p{}");
  write_file(root / ".env", "secret");
  write_file(outside / "secret.txt", "secret");
  fs::create_symlink("../outside/secret.txt", root / "leak.txt");
  fs::create_directory_symlink("../outside", root / "out");
  fs::create_directory_symlink("/etc", root / "etc");
  fs::create_symlink("app.js", root / "alias.js");  // inside: may be served
  s.files.emplace(root);
  for (const char* f : {"index.html", "app.js", "sub/index.html", "sub/style.css"}) {
    s.servable.insert(fs::canonical(root / f));
  }
  std::atexit([] { fs::remove_all(site().base); });
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// http_query.hpp's decoding rules, written again.
std::optional<std::string> decode(std::string_view in, bool plus_is_space) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (in.size() - i < 3 || hex(in[i + 1]) < 0 || hex(in[i + 2]) < 0) return std::nullopt;
      c = static_cast<char>(hex(in[i + 1]) * 16 + hex(in[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return std::nullopt;
    out.push_back(c);
  }
  if (!read_utf8(out)) return std::nullopt;
  return out;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::optional<RequestTarget> expected_target(std::string_view t) {
  t = t.substr(0, t.find('#'));
  if (t.empty() || t.front() != '/') return std::nullopt;
  const std::size_t q = t.find('?');
  const std::string_view path = t.substr(0, q);
  RequestTarget out;
  auto whole = decode(path, false);
  if (!whole) return std::nullopt;
  out.path = *whole;
  for (const std::string_view seg : split(path.substr(1), '/'))
    out.segments.push_back(*decode(seg, false));
  if (q == std::string_view::npos) return out;
  for (const std::string_view pair : split(t.substr(q + 1), '&')) {
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto key = decode(pair.substr(0, eq), true);
    auto value = eq == std::string_view::npos ? std::optional<std::string>("")
                                              : decode(pair.substr(eq + 1), true);
    if (!key || !value) return std::nullopt;
    out.query.emplace_back(std::move(*key), std::move(*value));
  }
  return out;
}

bool same_target(const RequestTarget& a, const RequestTarget& b) {
  return a.path == b.path && a.segments == b.segments && a.query == b.query;
}

// '.' and '~' stay encoded: no rebuilt segment may read as a dot segment.
std::string encode(std::string_view text) {
  return tilecrush::testing::percent_encode(text);
}

void check_error_body(const protocol::HttpError& e) {
  FUZZ_CHECK(e.status == 400 && e.code == protocol::ErrorCode::bad_request,
             "a bad parameter is a 400");
  const auto body = nlohmann::json::parse(protocol::http_error_body(e), nullptr, false);
  FUZZ_CHECK(body.is_object() && body["error"]["code"] == "bad_request" &&
                 body["error"]["message"].is_string(),
             "an error body is {error: {code, message}}");
}

// The single non-empty value of `name`, nullptr when absent or empty, or
// `twice` set when it is given more than once.
const std::string* single(const RequestTarget& t, std::string_view name, bool& twice) {
  const auto all = t.values(name);
  twice = all.size() > 1;
  return all.size() == 1 && !all.front()->empty() ? all.front() : nullptr;
}

std::optional<std::int64_t> decimal(const std::string& text) {
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  __int128 v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
    if (v > (__int128{1} << 64)) return std::nullopt;
  }
  if (text[0] == '-') v = -v;
  if (v < std::numeric_limits<std::int64_t>::min() || v > std::numeric_limits<std::int64_t>::max())
    return std::nullopt;
  return static_cast<std::int64_t>(v);
}

void check_params(const RequestTarget& t) {
  std::vector<std::string> names{"mode", "preset", "seed", "limit", "offset", "player", "radius"};
  if (!t.query.empty()) names.push_back(t.query.front().first);
  for (const std::string& name : names) {
    bool twice = false;
    const std::string* text = single(t, name, twice);

    const protocol::IntParam i = protocol::int_param(t, name, 20, -5, 100);
    const std::optional<std::int64_t> n = text ? decimal(*text) : std::nullopt;
    const bool int_ok = !twice && (!text || (n && *n >= -5 && *n <= 100));
    FUZZ_CHECK(i.ok() == int_ok, "int_param accepts exactly a decimal in range, or nothing");
    if (i.ok())
      FUZZ_CHECK(i.value == (text ? *n : 20), "int_param reads the value or the fallback");
    if (!i.ok()) check_error_body(*i.error);
    const protocol::IntParam req = protocol::required_int_param(t, name, 0, 1000);
    FUZZ_CHECK(!req.ok() || (text && req.value >= 0 && req.value <= 1000),
               "required_int_param needs a value");

    const protocol::StringParam s = protocol::string_param(t, name, true, 8);
    const auto info = text ? read_utf8(*text) : std::nullopt;
    const bool str_ok = !twice && text && info && info->code_points <= 8 && !info->control;
    FUZZ_CHECK(s.ok() == str_ok, "string_param accepts exactly a short text without controls");
    if (s.ok()) FUZZ_CHECK(s.value && *s.value == *text, "string_param reads the value");
    if (!s.ok()) check_error_body(*s.error);
  }
}

bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin();
  auto q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *r != *q) return false;
  }
  return q != p.end();
}

void check_static(std::string_view raw_path) {
  const Site& s = site();
  const auto file = s.files->resolve(raw_path);
  if (!file) return;
  FUZZ_CHECK(inside(s.files->root(), file->path), "a resolved file is inside the root");
  FUZZ_CHECK(s.servable.count(file->path) == 1,
             "a resolved file is one of the root's regular files");
  FUZZ_CHECK(!file->content_type.empty(), "a resolved file has a content type");
}

}  // namespace
}  // namespace tilecrush::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tilecrush::fuzz::make_site();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilecrush;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const protocol::TargetResult r = protocol::parse_target(text);
  const auto expected = fuzz::expected_target(text);
  FUZZ_CHECK(r.ok() == expected.has_value(),
             "parse_target accepts exactly what the contract allows");

  const std::string_view raw_path = text.substr(0, text.find_first_of("?#"));
  const auto decoded = protocol::percent_decode(raw_path, false);
  if (r.ok()) FUZZ_CHECK(decoded && *decoded == r.target.path, "the path decodes as its segments");
  fuzz::check_static(raw_path);
  fuzz::check_static(text);

  if (!r.ok()) {
    fuzz::check_error_body(*r.error);
    return 0;
  }
  FUZZ_CHECK(fuzz::same_target(r.target, *expected), "parse_target gives the contract's parts");
  std::string joined;
  for (const auto& seg : r.target.segments) joined += "/" + seg;
  FUZZ_CHECK(joined == r.target.path, "the segments make up the path");

  std::string again;
  for (const auto& seg : r.target.segments) again += "/" + fuzz::encode(seg);
  for (std::size_t i = 0; i < r.target.query.size(); ++i) {
    again += (i == 0 ? "?" : "&") + fuzz::encode(r.target.query[i].first) + "=" +
             fuzz::encode(r.target.query[i].second);
  }
  const protocol::TargetResult r2 = protocol::parse_target(again);
  FUZZ_CHECK(r2.ok() && fuzz::same_target(r.target, r2.target),
             "a re-encoded target parses the same");
  fuzz::check_params(r.target);
  return 0;
}
