#include "net/ws_handshake.hpp"

#include <openssl/evp.h>

#include <array>

namespace tilecrush::server::rfc6455 {
namespace {

constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

// The base64 of 16 bytes: 22 characters of the alphabet, then "==".
bool is_key(std::string_view key) {
  if (key.size() != 24 || key.substr(22) != "==") return false;
  for (const char c : key.substr(0, 22))
    if (!is_base64_char(c)) return false;
  // The last character before the padding carries 2 bits of data and 4
  // zero bits: one of "AQgw".
  return std::string_view("AQgw").find(key[21]) != std::string_view::npos;
}

std::string accept_of(std::string_view key) {
  std::string input(key);
  input += kGuid;
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(input.data(), input.size(), digest.data(), &length, EVP_sha1(), nullptr) != 1 ||
      length != 20) {
    return {};
  }
  std::array<unsigned char, 29> encoded{};  // 4 * ceil(20 / 3) + NUL
  const int n = EVP_EncodeBlock(encoded.data(), digest.data(), static_cast<int>(length));
  return std::string(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(n));
}

}  // namespace

UpgradeCheck check_upgrade(const http::request<http::string_body>& request) {
  UpgradeCheck out;
  const auto version = request.find(http::field::sec_websocket_version);
  if (version == request.end() || version->value() != "13") {
    out.status = 426;
    out.reason = "only WebSocket version 13 is spoken here";
    return out;
  }
  const auto key = request.find(http::field::sec_websocket_key);
  if (key == request.end() || !is_key(key->value())) {
    out.status = 400;
    out.reason = "Sec-WebSocket-Key must be the base64 of 16 bytes";
    return out;
  }
  out.accept = accept_of(key->value());
  if (out.accept.empty()) {
    out.status = 500;
    out.reason = "could not compute the handshake";
  }
  return out;
}

std::string switching_protocols(std::string_view accept) {
  std::string out =
      "HTTP/1.1 101 Switching Protocols\r\n"
      "Upgrade: websocket\r\n"
      "Connection: Upgrade\r\n"
      "Server: tilecrush\r\n"
      "Sec-WebSocket-Accept: ";
  out += accept;
  out += "\r\n\r\n";
  return out;
}

}  // namespace tilecrush::server::rfc6455
