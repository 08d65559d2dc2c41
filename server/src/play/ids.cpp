#include "play/ids.hpp"

#include <cstdint>
#include <random>

namespace tilecrush::server {
namespace {

std::string from_alphabet(std::string_view alphabet, std::size_t length) {
  thread_local std::random_device device;
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string out;
  out.reserve(length);
  for (std::size_t i = 0; i < length; ++i) out.push_back(alphabet[pick(device)]);
  return out;
}

}  // namespace

std::string random_token() {
  return from_alphabet("0123456789abcdef", 32);
}
std::string random_game_id() {
  return from_alphabet("0123456789abcdef", 16);
}
std::string random_seed() {
  return from_alphabet("abcdefghijkmnpqrstuvwxyz23456789", 10);
}
std::string random_competition_id() {
  return from_alphabet("abcdefghijkmnpqrstuvwxyz23456789", 12);
}
std::string random_room_code() {
  return from_alphabet("ABCDEFGHJKMNPQRSTVWXYZ23456789", 6);
}

}  // namespace tilecrush::server
