// Players: creation, case-insensitive names, token hashes.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "sqlite_connection.hpp"
#include "test_support.hpp"

namespace tilecrush::storage::testing {
namespace {

WriteResult create(Database& db, const std::string& name, const std::string& token,
                   std::int64_t at = 1) {
  return wait_for([&](WriteCallback cb) { db.create_player({name, hash_token(token), at}, cb); });
}

TEST(Players, CreateThenFindByNameAndId) {
  TempDir dir;
  Database db(options_for(dir.file()));
  const WriteResult r = create(db, "Alice", "t1", 1700000000123);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_GT(r.id, 0);

  const auto by_name = db.find_player_by_name("Alice");
  ASSERT_TRUE(by_name.has_value());
  EXPECT_EQ(by_name->id, r.id);
  EXPECT_EQ(by_name->name, "Alice");
  EXPECT_EQ(by_name->created_at, 1700000000123);
  EXPECT_EQ(by_name->games_played, 0);

  const auto by_id = db.find_player_by_id(r.id);
  ASSERT_TRUE(by_id.has_value());
  EXPECT_EQ(by_id->name, "Alice");
  EXPECT_FALSE(db.find_player_by_id(r.id + 100).has_value());
  EXPECT_FALSE(db.find_player_by_name("Bob").has_value());

  const WriteResult second = create(db, "Bob", "t2");
  ASSERT_TRUE(second.ok());
  EXPECT_NE(second.id, r.id);
}

TEST(Players, NamesAreUniqueIgnoringAsciiCase) {
  TempDir dir;
  Database db(options_for(dir.file()));
  ASSERT_TRUE(create(db, "Alice", "a").ok());
  for (const char* other : {"alice", "ALICE", "aLiCe", "Alice"}) {
    const WriteResult r = create(db, other, "b");
    EXPECT_EQ(r.status, WriteStatus::name_taken) << other;
    EXPECT_FALSE(r.message.empty());
  }
  for (const char* lookup : {"alice", "ALICE", "Alice"}) {
    const auto p = db.find_player_by_name(lookup);
    ASSERT_TRUE(p.has_value()) << lookup;
    EXPECT_EQ(p->name, "Alice");  // kept as first registered
  }
  // Not the same name: a longer one, and an ASCII look-alike.
  EXPECT_TRUE(create(db, "Alice2", "c").ok());
  EXPECT_TRUE(create(db, "A1ice", "d").ok());
  // NOCASE folds ASCII only: these are two names (documented contract).
  EXPECT_TRUE(create(db, "\xc3\x89mile", "e").ok());  // Émile
  EXPECT_TRUE(create(db, "\xc3\xa9mile", "f").ok());  // émile
}

TEST(Players, EmptyNameIsInvalid) {
  TempDir dir;
  Database db(options_for(dir.file()));
  EXPECT_EQ(create(db, "", "a").status, WriteStatus::invalid);
}

TEST(Players, OnlyTheTokenHashIsStored) {
  SKIP_UNLESS_SQLITE();
  TempDir dir;
  const std::string token = "very-secret-token-1234567890";
  {
    Database db(options_for(dir.file()));
    ASSERT_TRUE(create(db, "carol", token).ok());
    const auto p = db.find_player_by_name("carol");
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->token_hash, hash_token(token));
    EXPECT_NE(p->token_hash, token);
  }
  // After close, the checkpointed file holds the hash and not the token.
  std::ifstream in(dir.file(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes.find(token), std::string::npos);
  EXPECT_NE(bytes.find(hash_token(token)), std::string::npos);
}

}  // namespace
}  // namespace tilecrush::storage::testing
