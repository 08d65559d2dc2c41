// tilecrush_verify: replays a closed competition's results export and checks
// every entry's score (README.md in this folder). The work is in verify.hpp's
// run(); this only turns argv into arguments and keeps any exception (say,
// out of memory on a huge file) from escaping.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "verify.hpp"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    return tilecrush::verify::run(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "tilecrush_verify: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tilecrush_verify: internal error\n";
  }
  return tilecrush::verify::kExitUnusable;
}
