// Records what the integration tests receive from the server, so that
// tests/schema/check_recorded.mjs can check every answer against the
// contract's machine-readable form (protocol/schema: the WebSocket JSON
// Schemas and the OpenAPI document).
//
// Off unless TILECRUSH_MESSAGE_LOG names a directory; then each test process
// appends JSON lines to <dir>/<pid>.jsonl:
//   {"test": "Suite.Name", "kind": "ws", "message": {...}}
//   {"test": ..., "kind": "http", "method": "GET", "target": "/api/...",
//    "status": 200, "content_type": "...", "body": {...} | null}
// ("body" is the parsed body of a JSON answer, null otherwise.)
// Load tests receive many alike messages: past 2,000 of one WebSocket type
// (or one HTTP method and path) in a process, only a message whose shape
// (its key paths and value kinds) was not seen yet is recorded.
//
// Thread-safe: clients on several threads may record at once.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tilecrush::testing {

void record_ws_message(const nlohmann::json& message);
void record_http_answer(std::string_view method, std::string_view target, unsigned status,
                        std::string_view content_type, std::string_view body);

}  // namespace tilecrush::testing
