// Loads the SameGame standard test set (tests/data/samegame-standard/):
// 20 positions of 15 x 15 cells, colours 0..4 in the file, first line the TOP
// row. Boards come back in the engine's colours (file colour + 1), ready for a
// custom Same Game. Used by the tests and the benchmarks.
#pragma once

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tilecrush/game/board.hpp"

namespace tilecrush::game::test {

inline constexpr int kStandardSide = 15;
inline constexpr int kStandardPositions = 20;

inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Builds 15 x 15 boards from a flat list of file colours, top row first.
// Empty when the count or a value is wrong.
inline std::vector<Board> boards_from_values(const std::vector<int>& values) {
  constexpr int kCells = kStandardSide * kStandardSide;
  std::vector<Board> boards;
  if (values.size() % kCells != 0) return {};
  for (std::size_t first = 0; first < values.size(); first += kCells) {
    Board board(kStandardSide, kStandardSide);
    for (int i = 0; i < kCells; ++i) {
      const int v = values[first + static_cast<std::size_t>(i)];
      if (v < 0 || v > 4) return {};
      board.set(i % kStandardSide, i / kStandardSide, static_cast<std::uint8_t>(v + 1));
    }
    boards.push_back(std::move(board));
  }
  return boards;
}

// StandardTestset.txt: blocks of 15 lines of 15 numbers, separated by blank
// lines. A block with another shape makes the whole result empty.
inline std::vector<Board> parse_standard_txt(const std::string& text) {
  std::vector<int> values;
  std::istringstream lines(text);
  std::string line;
  int rows_in_block = 0;
  while (std::getline(lines, line)) {
    std::istringstream tokens(line);
    std::vector<int> row;
    int v = 0;
    while (tokens >> v) row.push_back(v);
    if (!tokens.eof()) return {};  // a token that is not a number
    if (row.empty()) {
      if (rows_in_block != 0 && rows_in_block != kStandardSide) return {};
      rows_in_block = 0;
      continue;
    }
    if (row.size() != static_cast<std::size_t>(kStandardSide)) return {};
    ++rows_in_block;
    values.insert(values.end(), row.begin(), row.end());
  }
  if (rows_in_block != 0 && rows_in_block != kStandardSide) return {};
  return boards_from_values(values);
}

// standard_testset.json: every integer after the "boards" key, in order
// (boards[k][r][x]); nothing else follows that key's nested arrays.
inline std::vector<Board> parse_standard_json(const std::string& text) {
  const std::size_t key = text.find("\"boards\"");
  if (key == std::string::npos) return {};
  std::size_t i = text.find('[', key);
  if (i == std::string::npos) return {};
  std::vector<int> values;
  int depth = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      if (--depth == 0) break;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int v = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        v = v * 10 + (text[i] - '0');
        ++i;
      }
      --i;
      values.push_back(v);
    } else if (c != ',' && !std::isspace(static_cast<unsigned char>(c))) {
      return {};
    }
  }
  if (depth != 0) return {};
  return boards_from_values(values);
}

// data_dir: the tests/data folder (TILECRUSH_TEST_DATA_DIR).
inline std::string standard_testset_dir(const std::string& data_dir) {
  return data_dir + "/samegame-standard";
}

inline std::vector<Board> load_standard_testset(const std::string& data_dir) {
  return parse_standard_txt(
      read_text_file(standard_testset_dir(data_dir) + "/StandardTestset.txt"));
}

}  // namespace tilecrush::game::test
