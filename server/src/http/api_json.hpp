// The HttpAnswer of a body protocol built (http_bodies.hpp,
// competition_bodies.hpp, http_error_body): every JSON answer of the HTTP
// API leaves through these.
//
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "net/http_session.hpp"
#include "tilecrush/protocol/errors.hpp"
#include "tilecrush/protocol/http_query.hpp"

namespace tilecrush::server::api {

HttpAnswer ok_json(const nlohmann::json& body, unsigned status = 200);
HttpAnswer error_answer(int status, protocol::ErrorCode code, std::string_view message);
HttpAnswer error_answer(const protocol::HttpError& e);

}  // namespace tilecrush::server::api
