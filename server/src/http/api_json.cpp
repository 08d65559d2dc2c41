#include "http/api_json.hpp"

#include "tilecrush/protocol/views.hpp"

namespace tilecrush::server::api {

HttpAnswer ok_json(const nlohmann::json& body, unsigned status) {
  return {status, protocol::dump(body)};
}

HttpAnswer error_answer(int status, protocol::ErrorCode code, std::string_view message) {
  return {static_cast<unsigned>(status), protocol::http_error_body(code, message)};
}

HttpAnswer error_answer(const protocol::HttpError& e) {
  return {static_cast<unsigned>(e.status), protocol::http_error_body(e)};
}

}  // namespace tilecrush::server::api
