// new_game and create_room: the parts of the parser that build a GameSetup.
#pragma once

#include "field_reader.hpp"
#include "tilecrush/protocol/commands.hpp"

namespace tilecrush::protocol::detail {

inline constexpr TextRule kSeedRule{1, kMaxSeedChars, false};
inline constexpr TextRule kKeyRule{1, kMaxKeyChars, false};

// Both record their first failure in `fields` and return a default then.
NewGame parse_new_game(FieldReader& fields);
CreateRoom parse_create_room(FieldReader& fields);

}  // namespace tilecrush::protocol::detail
