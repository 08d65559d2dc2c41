#include "net/outgoing_frames.hpp"

#include <cassert>
#include <cstdint>

namespace tilecrush::server {
namespace {

// Capacities an idle connection keeps; past them, they are given back.
constexpr std::size_t kKeptFrames = 16;

template <typename T>
void shrink_if_above(T& container, std::size_t keep) {
  if (container.capacity() > keep) T().swap(container);
}

}  // namespace

bool OutgoingFrames::push(OutgoingFrame frame) {
  if (frame.opcode == rfc6455::Opcode::text) {
    if (queued_text_ >= max_messages_ || queued_bytes_ + frame.text().size() > max_bytes_) {
      return false;
    }
    ++queued_text_;
    queued_bytes_ += frame.text().size();
  }
  queue_.push_back(std::move(frame));
  return true;
}

std::span<const net::const_buffer> OutgoingFrames::begin_batch() {
  assert(!writing_ && !queue_.empty());
  writing_ = true;
  // Every frame queued goes out in this one write; the queue keeps filling
  // meanwhile (the swap keeps both vectors' capacity).
  writing_frames_.swap(queue_);
  headers_.resize(writing_frames_.size() * rfc6455::kMaxHeaderBytes);
  buffers_.clear();
  auto* header = reinterpret_cast<std::uint8_t*>(headers_.data());
  for (const OutgoingFrame& frame : writing_frames_) {
    const std::string_view text = frame.text();
    const std::size_t n = rfc6455::write_header(header, frame.opcode, text.size());
    buffers_.emplace_back(header, n);
    if (!text.empty()) buffers_.emplace_back(text.data(), text.size());
    header += rfc6455::kMaxHeaderBytes;
  }
  return buffers_;
}

void OutgoingFrames::consume(std::size_t n) {
  std::size_t done = 0;
  while (done < buffers_.size() && n >= buffers_[done].size()) n -= buffers_[done++].size();
  if (done < buffers_.size()) buffers_[done] += n;
  buffers_.erase(buffers_.begin(), buffers_.begin() + static_cast<std::ptrdiff_t>(done));
}

bool OutgoingFrames::batch_ends_with_close() const {
  return !writing_frames_.empty() && writing_frames_.back().opcode == rfc6455::Opcode::close;
}

bool OutgoingFrames::end_batch() {
  writing_ = false;
  const bool wrote_close = batch_ends_with_close();
  for (const OutgoingFrame& frame : writing_frames_) {
    if (frame.opcode != rfc6455::Opcode::text) continue;
    --queued_text_;
    queued_bytes_ -= frame.text().size();
  }
  writing_frames_.clear();
  return wrote_close;
}

void OutgoingFrames::shrink() {
  shrink_if_above(writing_frames_, kKeptFrames);
  shrink_if_above(queue_, kKeptFrames);
  shrink_if_above(buffers_, 2 * kKeptFrames);
  shrink_if_above(headers_, kKeptFrames * rfc6455::kMaxHeaderBytes);
}

}  // namespace tilecrush::server
