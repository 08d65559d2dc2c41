// The OpenAPI 3.1 description of the HTTP API: protocol/schema/openapi.json,
// compiled into the library (embed_file.cmake) and served by the server at
// /api/openapi.json. protocol.md stays the normative text; the tests check
// every HTTP answer they receive against this document.
#pragma once

#include <string_view>

namespace tilecrush::protocol {

// The document's bytes, exactly as in the repository. Thread-safe (static data).
std::string_view openapi_document();

}  // namespace tilecrush::protocol
