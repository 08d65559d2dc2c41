// UTF-8 validity, for the text the server reads outside JSON (WebSocket
// text messages and close reasons, RFC 6455 section 8.1).
//
// Thread safety: a free function over a value.
#pragma once

#include <string_view>

namespace tilecrush::protocol {

// True when `text` is well-formed UTF-8 (RFC 3629): false for a stray
// continuation byte, a sequence cut off by the end of `text`, an overlong
// form, a surrogate (U+D800-U+DFFF) or a code point above U+10FFFF. Every
// other code point is accepted, NUL and control characters included. Runs
// of ASCII are checked eight bytes at a time.
bool valid_utf8(std::string_view text);

}  // namespace tilecrush::protocol
