// The command line of tilecrush_verify (verify.hpp's run(); README.md).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "verify.hpp"

namespace tilecrush::verify {

namespace {

constexpr const char* kUsage =
    "usage: tilecrush_verify RESULTS.json [--key HEX]\n"
    "\n"
    "Replays every entry of a closed competition's results export\n"
    "(GET /api/competitions/{id}/results) with the rules engine and checks\n"
    "that each replay gives the entry's score and move count, and that the\n"
    "entries are ranked in the rules' order (score, then moves or time, then\n"
    "the earlier finish, then the lower player id).\n"
    "\n"
    "  RESULTS.json   the export; - reads it from standard input\n"
    "  --key HEX      the board key (64 hex digits), when the export does not\n"
    "                 carry it; overrides the export's key\n"
    "  --help         this text\n"
    "\n"
    "The key must hash to the competition's published commitment.\n"
    "Exit: 0 every entry agrees and the order is right; 1 an entry disagrees,\n"
    "the order is wrong or the key is not the committed one; 2 bad arguments,\n"
    "an unusable export or nothing to verify.\n";

struct Args {
  std::string path;
  std::optional<std::string> key;
  bool help = false;
};

// nullopt after writing the problem to `err`.
std::optional<Args> parse_args(std::span<const std::string> args, std::ostream& err) {
  Args out;
  bool have_path = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::optional<std::string> key;
    if (a == "--help" || a == "-h") {
      out.help = true;
      return out;
    } else if (a == "--key") {
      if (i + 1 == args.size()) {
        err << "tilecrush_verify: --key needs a value\n";
        return {};
      }
      key = args[++i];
    } else if (a.rfind("--key=", 0) == 0) {
      key = a.substr(6);
    } else if (a.size() > 1 && a[0] == '-') {
      err << "tilecrush_verify: unknown option " << a << "\n";
      return {};
    } else if (have_path) {
      err << "tilecrush_verify: more than one results file given\n";
      return {};
    } else {
      out.path = a;
      have_path = true;
    }
    if (key) {
      if (out.key) {
        err << "tilecrush_verify: --key given twice\n";
        return {};
      }
      out.key = std::move(key);
    }
  }
  if (!have_path) {
    err << "tilecrush_verify: no results file given\n";
    return {};
  }
  return out;
}

std::optional<std::string> read_text(const std::string& path, std::ostream& err) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    return text.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << "tilecrush_verify: " << path << " is a directory\n";
    return {};
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    err << "tilecrush_verify: cannot open " << path << "\n";
    return {};
  }
  text << file.rdbuf();
  if (file.bad()) {
    err << "tilecrush_verify: cannot read " << path << "\n";
    return {};
  }
  return text.str();
}

std::size_t ranked_count(const std::vector<Entry>& entries) {
  std::size_t n = 0;
  for (const Entry& e : entries) n += e.rank ? 1 : 0;
  return n;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

int run(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const auto parsed_args = parse_args(args, err);
  if (!parsed_args) {
    err << kUsage;
    return kExitUnusable;
  }
  if (parsed_args->help) {
    out << kUsage;
    return kExitAgree;
  }
  const Args& a = *parsed_args;
  std::optional<game::BoardSecret> arg_key;
  if (a.key) {
    arg_key = game::digest_from_hex(*a.key);
    if (!arg_key) {
      err << "tilecrush_verify: --key must be exactly 64 hex digits\n";
      return kExitUnusable;
    }
  }
  const auto text = read_text(a.path, err);
  if (!text) return kExitUnusable;
  ExportResult parsed = parse_export(*text);
  if (!parsed.value) {
    err << "tilecrush_verify: " << a.path << ": " << parsed.error << "\n";
    return kExitUnusable;
  }
  const Export& ex = *parsed.value;
  if (ex.rules_version < game::kMinRulesVersion || ex.rules_version > game::kRulesVersion) {
    err << "tilecrush_verify: rules version " << ex.rules_version << ": this verifier knows "
        << game::kMinRulesVersion << " to " << game::kRulesVersion << "\n";
    return kExitUnusable;
  }
  if (!ex.state.empty() && ex.state != "closed") {
    err << "tilecrush_verify: the competition is not closed (state " << printable(ex.state)
        << "): its moves and key are not published yet, nothing to verify\n";
    return kExitUnusable;
  }
  for (const Entry& e : ex.entries) {
    if (e.moves.is_null()) {
      err << "tilecrush_verify: game " << printable(e.game_id)
          << " has no moves (null): the competition is not closed, nothing to verify\n";
      return kExitUnusable;
    }
  }

  game::GameSetup setup;
  setup.mode = ex.mode;
  setup.preset = ex.preset;
  setup.seed = ex.seed;
  setup.rules_version = static_cast<int>(ex.rules_version);
  const std::string header = "competition " + printable(ex.id) + ": " +
                             std::string(game::to_string(ex.mode)) + " " + printable(ex.preset) +
                             ", seed " + printable(ex.seed) + ", rules version " +
                             std::to_string(ex.rules_version) + "\n";
  if (ex.rules_version >= 2) {
    std::optional<game::BoardSecret> key = arg_key;
    if (!key && ex.key) {
      key = game::digest_from_hex(*ex.key);
      if (!key) {
        err << "tilecrush_verify: competition.key is not 64 hex digits\n";
        return kExitUnusable;
      }
    } else if (key && ex.key && lower(*ex.key) != game::to_hex(*key)) {
      err << "tilecrush_verify: note: --key overrides the export's key\n";
    }
    if (!key) {
      err << "tilecrush_verify: no key: the export's key is null (is the competition closed?)"
             " and --key was not given\n";
      return kExitUnusable;
    }
    if (!ex.commitment || !game::digest_from_hex(*ex.commitment)) {
      err << "tilecrush_verify: competition.commitment is missing or not 64 hex digits:"
             " nothing to check the key against\n";
      return kExitUnusable;
    }
    out << header;
    const std::string actual = game::commitment(*key);
    if (lower(*ex.commitment) != actual) {
      out << "KEY MISMATCH: SHA-256(key) = " << actual << ", but the competition committed to "
          << lower(*ex.commitment) << ": this key is not the committed one\n";
      return kExitDisagree;
    }
    out << "key matches commitment " << actual << "\n";
    setup.board_key = *key;
  } else {
    if (arg_key)
      err << "tilecrush_verify: note: rules version 1 boards have no key: --key ignored\n";
    out << header << "rules version 1: boards are dealt from the seed alone, no key to check\n";
  }
  if (const game::CreateResult dealt = game::create_game(setup); !dealt.game) {
    err << "tilecrush_verify: cannot deal the competition's board: " << dealt.error << "\n";
    return kExitUnusable;
  }

  std::size_t agree = 0;
  for (const Entry& e : ex.entries) {
    const EntryCheck check = check_entry(setup, e);
    out << check.line << "\n";
    if (check.verdict == Verdict::ok) ++agree;
  }
  const std::size_t disagree = ex.entries.size() - agree;
  // The rank order, from the entries' own fields.
  const std::vector<std::string> order = check_order(ex.mode, ex.entries);
  for (const std::string& line : order) out << line << "\n";
  if (order.empty()) {
    out << "order ok: " << ranked_count(ex.entries)
        << " ranked entries in the rules' order (score, then "
        << (ex.mode == game::Mode::hidden ? "time" : "moves")
        << ", then the earlier finish, then the lower player id)\n";
  }
  out << "verified " << ex.entries.size() << " entries: " << agree << " ok, " << disagree
      << " disagree\n";
  out.flush();
  return disagree == 0 && order.empty() ? kExitAgree : kExitDisagree;
}

}  // namespace tilecrush::verify
