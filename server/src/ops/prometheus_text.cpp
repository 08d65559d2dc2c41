#include "ops/prometheus_text.hpp"

namespace tilecrush::server {

void PrometheusText::family(std::string_view name, std::string_view type, std::string_view help) {
  out_.append("# HELP ").append(name).append(" ").append(help).append("\n# TYPE ");
  out_.append(name).append(" ").append(type).append("\n");
}

void PrometheusText::sample(std::string_view name, std::string_view labels,
                            std::string_view value) {
  out_ += name;
  if (!labels.empty()) out_.append("{").append(labels).append("}");
  out_.append(" ").append(value).append("\n");
}

}  // namespace tilecrush::server
