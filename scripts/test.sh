#!/usr/bin/env bash
# Sets up and runs every test:
#   1. the release build and all CTest suites (engine, protocol, storage,
#      server integration and rooms, install-prefix/docker test);
#   2. the engine and protocol tests under ASan+UBSan (`asan` preset);
#   3. a short run of each libFuzzer target (clang, ASan+UBSan; see
#      tests/fuzz/README.md for longer runs);
#   4. the browser tests (Debian chromium driven by playwright-core).
# Stops at the first failing stage. TILECRUSH_SKIP_BROWSER=1 skips stage 3.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${TILECRUSH_SKIP_BROWSER:-0}" == "1" ]]; then
  scripts/setup.sh
else
  scripts/setup.sh --browser
fi

echo "== 1/4 release build and tests"
scripts/build.sh release
ctest --preset release -j "$(nproc)"

echo "== 2/4 engine tests under ASan+UBSan"
scripts/build.sh asan --target game_tests protocol_tests
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
build/asan/tests/game/game_tests --gtest_brief=1
build/asan/tests/protocol/protocol_tests --gtest_brief=1

echo "== 3/4 fuzz targets, 20 s each"
scripts/fuzz.sh 20

if [[ "${TILECRUSH_SKIP_BROWSER:-0}" != "1" ]]; then
  echo "== 4/4 browser tests"
  (cd tests/browser && TILECRUSH_SERVER="$PWD/../../build/release/server/tilecrush_server" \
     TILECRUSH_REQUIRE_SERVER=1 npm test)
fi
echo "all tests passed"
