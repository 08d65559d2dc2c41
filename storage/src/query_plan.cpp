// The plan of a leaderboard query, for the tests' proof that its order
// comes from an index.
#include "stores.hpp"

namespace tilecrush::storage::detail {

std::string query_plan(Connection& c, std::string_view sql) {
  std::string plan;
  if (c.postgres()) {
    // PostgreSQL plans with the values: give it a board and small numbers.
    auto statement = c.prepare("EXPLAIN " + std::string(sql));
    bind_board(*statement, BoardKey{game::Mode::same, "classic", "plan", ""});
    for (int i = 4; i <= 7; ++i) statement->bind(i, 1);
    while (statement->step()) {
      if (!plan.empty()) plan += '\n';
      plan += statement->get_text(0);
    }
    return plan;
  }
  auto statement = c.prepare("EXPLAIN QUERY PLAN " + std::string(sql));
  while (statement->step()) {
    if (!plan.empty()) plan += '\n';
    plan += statement->get_text(3);  // columns: id, parent, notused, detail
  }
  return plan;
}

}  // namespace tilecrush::storage::detail
