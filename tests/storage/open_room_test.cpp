// Open rooms: the whole state stored under the room's code, replaced by each
// save, removed when the room closes or finishes, the migration that
// brings a version-6 file to the table, and (on PostgreSQL) a room that two
// nodes write at once.
#include <gtest/gtest.h>

#include "storage_upgrade.hpp"
#include "test_support.hpp"
#include "two_nodes_support.hpp"

namespace tilecrush::storage::testing {
namespace {

class OpenRooms : public ::testing::Test {
 protected:
  OpenRooms()
      : db_(options_for(dir_.file())),
        ann_(make_player(db_, "ann")),
        bob_(make_player(db_, "bob")),
        cy_(make_player(db_, "cy")) {}

  WriteResult save(const OpenRoomRecord& room) {
    return wait_for([&](WriteCallback cb) { db_.save_open_room(room, cb); });
  }

  OpenRoomRecord lobby(const std::string& code) const {
    OpenRoomRecord room;
    room.code = code;
    room.mode = game::Mode::match3;
    room.preset = "classic";
    room.seed = "friday";
    room.creator_player_id = ann_;
    room.host_player_id = ann_;
    room.created_at = 1000;
    room.last_activity = 1000;
    room.epoch = 3;
    room.players = {{ann_, "", std::nullopt, false, 0, 0}, {bob_, "", std::nullopt, false, 0, 0}};
    return room;
  }

  TempDir dir_;
  Database db_;
  PlayerId ann_;
  PlayerId bob_;
  PlayerId cy_;
};

TEST_F(OpenRooms, TheWholeStateComesBack) {
  ASSERT_TRUE(save(lobby("QX4PZR")).ok());
  const auto found = db_.find_open_room("QX4PZR");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->code, "QX4PZR");
  EXPECT_EQ(found->mode, game::Mode::match3);
  EXPECT_EQ(found->preset, "classic");
  EXPECT_EQ(found->seed, "friday");
  EXPECT_EQ(found->creator_player_id, ann_);
  EXPECT_EQ(found->host_player_id, ann_);
  EXPECT_EQ(found->phase, OpenRoomPhase::lobby);
  EXPECT_EQ(found->created_at, 1000);
  EXPECT_EQ(found->last_activity, 1000);
  EXPECT_EQ(found->epoch, 3);
  ASSERT_EQ(found->players.size(), 2u);
  EXPECT_EQ(found->players[0].player_id, ann_);
  EXPECT_EQ(found->players[0].player, "ann");
  EXPECT_EQ(found->players[1].player, "bob");
  EXPECT_FALSE(found->players[1].game_id.has_value());
  EXPECT_FALSE(db_.find_open_room("qx4pzr").has_value());  // codes are stored normalised
  EXPECT_FALSE(db_.find_open_room("NONE").has_value());
}

TEST_F(OpenRooms, ASaveReplacesTheRoomAndItsPlayers) {
  const BoardKey board{game::Mode::match3, "classic", "friday", ""};
  OpenRoomRecord room = lobby("QX4PZR");
  room.players.push_back({cy_, "", std::nullopt, false, 0, 0});
  ASSERT_TRUE(save(room).ok());

  // ann leaves the lobby: bob hosts; then the room starts with bob and cy.
  ASSERT_TRUE(store_game(db_, ranked_game("g-cy", cy_, board)).ok());
  ASSERT_TRUE(store_game(db_, ranked_game("g-bob", bob_, board)).ok());
  room.phase = OpenRoomPhase::playing;
  room.host_player_id = bob_;
  room.last_activity = 5000;
  room.epoch = 4;
  // Seats follow the vector: cy joined before bob in this made-up order.
  room.players = {{cy_, "", "g-cy", false, 0, 0}, {bob_, "", "g-bob", true, 40, 3}};
  ASSERT_TRUE(save(room).ok());

  const auto found = db_.find_open_room("QX4PZR");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->phase, OpenRoomPhase::playing);
  EXPECT_EQ(found->host_player_id, bob_);
  EXPECT_EQ(found->creator_player_id, ann_);
  EXPECT_EQ(found->last_activity, 5000);
  EXPECT_EQ(found->epoch, 4);
  ASSERT_EQ(found->players.size(), 2u);
  EXPECT_EQ(found->players[0].player, "cy");
  EXPECT_EQ(found->players[0].game_id, "g-cy");
  EXPECT_FALSE(found->players[0].left);
  EXPECT_EQ(found->players[1].player, "bob");
  EXPECT_EQ(found->players[1].game_id, "g-bob");
  EXPECT_TRUE(found->players[1].left);
  EXPECT_EQ(found->players[1].score, 40);
  EXPECT_EQ(found->players[1].move_count, 3);
  EXPECT_EQ(db_.open_rooms().size(), 1u);
}

TEST_F(OpenRooms, RefusedSavesLeaveTheStoredStateAlone) {
  ASSERT_TRUE(save(lobby("QX4PZR")).ok());
  OpenRoomRecord twice = lobby("QX4PZR");
  twice.host_player_id = bob_;
  twice.players.push_back({ann_, "", std::nullopt, false, 0, 0});
  EXPECT_EQ(save(twice).status, WriteStatus::invalid);
  OpenRoomRecord stranger = lobby("QX4PZR");
  stranger.host_player_id = bob_;
  stranger.players.push_back({cy_ + 99, "", std::nullopt, false, 0, 0});
  EXPECT_EQ(save(stranger).status, WriteStatus::not_found);
  OpenRoomRecord no_game = lobby("QX4PZR");
  no_game.players[0].game_id = "missing";
  EXPECT_EQ(save(no_game).status, WriteStatus::not_found);
  EXPECT_EQ(save(lobby("")).status, WriteStatus::invalid);

  const auto found = db_.find_open_room("QX4PZR");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->host_player_id, ann_);
  EXPECT_EQ(found->players.size(), 2u);
}

TEST_F(OpenRooms, RemovalAndFinishForgetTheRoom) {
  OpenRoomRecord first = lobby("AAAAAA");
  OpenRoomRecord second = lobby("BBBBBB");
  second.created_at = 2000;
  second.players = {{cy_, "", std::nullopt, false, 0, 0}};
  ASSERT_TRUE(save(second).ok());
  ASSERT_TRUE(save(first).ok());
  const auto all = db_.open_rooms();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].code, "AAAAAA");  // oldest first
  EXPECT_EQ(all[0].players.size(), 2u);
  EXPECT_EQ(all[1].code, "BBBBBB");
  ASSERT_EQ(all[1].players.size(), 1u);
  EXPECT_EQ(all[1].players[0].player, "cy");

  EXPECT_TRUE(wait_for([&](WriteCallback cb) { db_.remove_open_room("BBBBBB", cb); }).ok());
  EXPECT_FALSE(db_.find_open_room("BBBBBB").has_value());
  // Removing what is not there is fine (a room closed twice).
  EXPECT_TRUE(wait_for([&](WriteCallback cb) { db_.remove_open_room("BBBBBB", cb); }).ok());

  RoomRecord result;
  result.code = "AAAAAA";
  result.mode = first.mode;
  result.preset = first.preset;
  result.seed = first.seed;
  result.host_player_id = ann_;
  result.created_at = 1000;
  result.finished_at = 9000;
  result.standings = {{1, bob_, "", 20, 2, std::nullopt}, {2, ann_, "", 10, 2, std::nullopt}};
  const WriteResult finished =
      wait_for([&](WriteCallback cb) { db_.finish_open_room(result, cb); });
  ASSERT_TRUE(finished.ok()) << finished.message;
  EXPECT_GT(finished.id, 0);
  EXPECT_TRUE(db_.open_rooms().empty());
  const auto stored = db_.find_room("AAAAAA");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->id, finished.id);
  EXPECT_EQ(stored->standings.size(), 2u);

  // A refused result leaves the open room where it was.
  ASSERT_TRUE(save(second).ok());
  result.code = "BBBBBB";
  result.standings = {{1, cy_ + 99, "", 1, 1, std::nullopt}};
  EXPECT_EQ(wait_for([&](WriteCallback cb) { db_.finish_open_room(result, cb); }).status,
            WriteStatus::not_found);
  EXPECT_TRUE(db_.find_open_room("BBBBBB").has_value());
}

TEST(OpenRoomsSchema, AVersionSixFileGainsTheTablesAndKeepsItsData) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  ASSERT_TRUE(at_older_version(dir.file(), 6, R"sql(
INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'old', 'h', 5);
INSERT INTO rooms (code, mode, preset, seed, host_player_id, created_at, finished_at)
VALUES ('OLDONE', 'same', 'easy', 's', 1, 10, 20);
)sql"));
  Database db(options_for(dir.file()));
  EXPECT_EQ(db.settings().schema_version, kSchemaVersion);
  EXPECT_TRUE(db.open_rooms().empty());
  ASSERT_TRUE(db.find_room("OLDONE").has_value());
  const auto old = db.find_player_by_name("old");
  ASSERT_TRUE(old.has_value());

  OpenRoomRecord room;
  room.code = "NEWONE";
  room.preset = "easy";
  room.seed = "s";
  room.creator_player_id = old->id;
  room.host_player_id = old->id;
  room.players = {{old->id, "", std::nullopt, false, 0, 0}};
  ASSERT_TRUE(wait_for([&](WriteCallback cb) { db.save_open_room(room, cb); }).ok());
  const auto found = db.find_open_room("NEWONE");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->epoch, 0);
  EXPECT_EQ(found->players[0].player, "old");
}

// A room taken over by another node (a higher epoch) while its old owner
// still writes it: whichever commits first, the room ends as the newer
// epoch wrote it, its players included, and the old owner's write is
// refused when it comes second.
TEST_F(TwoNodes, ARoomEndsAsItsNewestEpochWroteIt) {
  const PlayerId p1 = make_player(*a_, "p1");
  const PlayerId p2 = make_player(*a_, "p2");
  for (int round = 0; round < 20; ++round) {
    OpenRoomRecord room;
    room.code = numbered("R", round);
    room.preset = "easy";
    room.seed = "s";
    room.creator_player_id = p1;
    room.host_player_id = p1;
    room.epoch = 1;
    room.owner = "a";
    room.players = {OpenRoomPlayer{p1, "", std::nullopt, false, 0, 0}};
    ASSERT_TRUE(wait_for([&](WriteCallback cb) { a_->save_open_room(room, cb); }).ok());
    OpenRoomRecord old_owner = room;  // still epoch 1, one more player
    old_owner.players.push_back(OpenRoomPlayer{p2, "", std::nullopt, false, 0, 0});
    OpenRoomRecord new_owner = room;
    new_owner.epoch = 2;
    new_owner.owner = "b";
    new_owner.host_player_id = p2;
    new_owner.players = {OpenRoomPlayer{p2, "", std::nullopt, false, 0, 0}};
    WriteResult ra;
    WriteResult rb;
    race([&] { ra = wait_for([&](WriteCallback cb) { a_->save_open_room(old_owner, cb); }); },
         [&] { rb = wait_for([&](WriteCallback cb) { b_->save_open_room(new_owner, cb); }); });
    EXPECT_TRUE(rb.ok()) << rb.message;
    EXPECT_TRUE(ra.ok() || ra.status == WriteStatus::conflict) << ra.message;
    const auto stored = a_->find_open_room(room.code);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->epoch, 2);
    EXPECT_EQ(stored->owner, "b");
    ASSERT_EQ(stored->players.size(), 1u);
    EXPECT_EQ(stored->players[0].player_id, p2);
  }
}

}  // namespace
}  // namespace tilecrush::storage::testing
