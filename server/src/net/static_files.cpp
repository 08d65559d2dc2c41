#include "net/static_files.hpp"

#include <system_error>

#include "tilecrush/protocol/http_query.hpp"

namespace tilecrush::server {
namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& root, const fs::path& candidate) {
  auto r = root.begin();
  auto c = candidate.begin();
  for (; r != root.end(); ++r, ++c) {
    if (c == candidate.end() || *r != *c) return false;
  }
  return true;
}

}  // namespace

StaticFiles::StaticFiles(const fs::path& root) : root_(fs::canonical(root)) {}

std::optional<StaticFiles::File> StaticFiles::resolve(std::string_view target) const {
  if (target.empty() || target.front() != '/') return std::nullopt;
  const auto decoded = protocol::percent_decode(target, false);
  if (!decoded) return std::nullopt;
  fs::path relative;
  std::string_view rest(*decoded);
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string_view segment = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (segment.empty()) continue;
    // No parent references, no dotfiles, no Windows separators.
    if (segment.front() == '.' || segment.find('\\') != std::string_view::npos) return std::nullopt;
    relative /= std::string(segment);
  }
  fs::path candidate = root_ / relative;
  std::error_code ec;
  if (fs::is_directory(candidate, ec)) candidate /= "index.html";
  const fs::path real = fs::canonical(candidate, ec);
  if (ec || !inside(root_, real) || !fs::is_regular_file(real, ec)) return std::nullopt;
  return File{real, content_type(real)};
}

bool StaticFiles::is_page_address(std::string_view target) {
  const std::size_t slash = target.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? target : target.substr(slash + 1);
  return last.find('.') == std::string_view::npos;
}

std::string_view StaticFiles::content_type(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".webmanifest") return "application/manifest+json";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace tilecrush::server
