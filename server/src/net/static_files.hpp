// Serves the web client's files from one folder, never outside it.
//
// Thread safety: immutable after construction; resolve() may run on any thread.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tilecrush::server {

class StaticFiles {
 public:
  // `root` must exist; it is made canonical once.
  explicit StaticFiles(const std::filesystem::path& root);

  struct File {
    std::filesystem::path path;
    std::string_view content_type;
  };

  // Maps a request path (already without query string, still percent-encoded)
  // to a regular file inside the root, or nullopt: bad encoding, a `..` or
  // hidden segment, a NUL or backslash, a file outside the root after
  // resolving symlinks, or no such file. "/" and folders map to index.html.
  std::optional<File> resolve(std::string_view target) const;

  static std::string_view content_type(const std::filesystem::path& path);

  // Whether `target` (a request path) reads as a page's address rather than
  // a file's: its last segment has no extension ("/nope/xyz", but not
  // "/js/gone.js" or "/favicon.ico"). Where no file answers such an
  // address, the server gives the client's page with 404, which says so.
  static bool is_page_address(std::string_view target);

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace tilecrush::server
