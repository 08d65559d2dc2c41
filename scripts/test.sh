#!/usr/bin/env bash
# Sets up and runs every test (SECURITY.md names the test behind each
# promise, by these stage numbers):
#   1. the formatting check first, so that it fails fast
#      (scripts/check_format.sh: every tracked C++ file as .clang-format
#      says, clang-format-14); the OpenAPI document and the WebSocket
#      JSON Schemas (protocol/schema) through swagger-parser and ajv
#      (tests/schema/lint_*.mjs); the release build and all CTest
#      suites (engine, protocol, storage, server integration and rooms,
#      crash tests, install-prefix/docker test, and the pg. tests: the
#      storage suite, the storing server suites, the crash and
#      room-restart tests again on a throw-away PostgreSQL 15 cluster
#      (scripts/pg_scratch.sh); the cluster test, cluster_tests:
#      two nodes and nginx on a PostgreSQL of its own, from
#      scripts/cluster.sh; cluster_failover_tests (each node SIGKILLed
#      in turn under load, every player back through nginx) and
#      cluster_pg_fault_tests (a node killed mid-batch, the writer's
#      session terminated, PostgreSQL restarted), each on a cluster of its
#      own; every message the server
#      and crash tests receive is checked against protocol/schema by
#      tests/schema/check_recorded.mjs); /metrics against
#      `promtool check metrics` (scripts/check_metrics.sh: the release
#      server after some traffic);
#   2. the same CTest suites under ASan+UBSan (`asan` preset, build/asan):
#      everything but the install-prefix test, which checks the plain
#      release image (tests/docker/CMakeLists.txt leaves it out of
#      sanitizer builds); the cluster test runs the ASan server as its
#      nodes (about 10 s);
#   3. the storage, server integration, rooms and crash tests under
#      ThreadSanitizer (`tsan` preset, build/tsan; only storage_tests,
#      server_tests and crash_tests are built, `ctest -L 'server|storage'`);
#   4. a short run of each libFuzzer target (clang, ASan+UBSan; see
#      tests/fuzz/README.md for longer runs);
#   5. the browser tests (Debian chromium driven by playwright-core; every
#      WebSocket message of every page is checked against protocol/schema).
# Stops at the first failing stage; a sanitizer report fails its test.
# TILECRUSH_SKIP_BROWSER=1 skips stage 5.
#
#   scripts/test.sh           every stage (what CI runs: .ci/run)
#   scripts/test.sh --quick   stage 1 only, the everyday subset: no
#                             sanitizers, fuzzers or browser (nor chromium
#                             in the setup)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

if [[ "$quick" == "1" || "${TILECRUSH_SKIP_BROWSER:-0}" == "1" ]]; then
  scripts/setup.sh --test
else
  scripts/setup.sh --browser
fi

# A throw-away PostgreSQL 15 cluster on loopback for the suites that run
# again on PostgreSQL (the pg. tests: storage, the storing server suites,
# crash and room-restart tests); removed however this script ends.
pg_dir=$(mktemp -d /tmp/tilecrush-pg-XXXXXX)
# On a failure PostgreSQL's own log is printed first: it may tell why.
trap 'rc=$?; if ((rc)) && [[ -f $pg_dir/log ]]; then echo "== PostgreSQL log (last 40 lines)"; tail -n 40 "$pg_dir/log"; fi; scripts/pg_scratch.sh stop "$pg_dir"' EXIT
TILECRUSH_TEST_PG_URL=$(scripts/pg_scratch.sh start "$pg_dir")
export TILECRUSH_TEST_PG_URL TILECRUSH_TEST_PG_REQUIRED=1
echo "PostgreSQL for the pg. tests: $TILECRUSH_TEST_PG_URL"

echo "== 1/5 formatting, release build and tests, /metrics"
scripts/check_format.sh
node tests/schema/lint_openapi.mjs
node tests/schema/lint_ws_schemas.mjs
scripts/build.sh release
ctest --preset release -j "$(nproc)"
scripts/check_metrics.sh build/release

if [[ "$quick" == "1" ]]; then
  echo "quick tests passed (stage 1 of 5; scripts/test.sh adds sanitizers, fuzzers and the browser)"
  exit 0
fi

echo "== 2/5 all tests under ASan+UBSan"
scripts/build.sh asan
ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$(nproc)"

echo "== 3/5 storage, server, rooms and crash tests under TSan"
# gcc 12's TSan needs its own address layout, which kernels randomising
# mmap with more than 28 bits break; ASLR is turned off for this stage
# (the build runs the tests to list them) where the sandbox permits it.
# Nothing is suppressed: a report anywhere, SQLite and Boost included,
# fails its test. (The preset only mutes gcc's -Wtsan, which warns about
# every Asio fence; Asio synchronises with mutexes, which TSan follows.)
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi
"${no_aslr[@]}" scripts/build.sh tsan --target storage_tests server_tests crash_tests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  "${no_aslr[@]}" ctest --preset tsan -L 'server|storage' -j "$(nproc)"

echo "== 4/5 fuzz targets, 20 s each"
scripts/fuzz.sh 20

if [[ "${TILECRUSH_SKIP_BROWSER:-0}" != "1" ]]; then
  echo "== 5/5 browser tests"
  (cd tests/browser && TILECRUSH_SERVER="$PWD/../../build/release/server/tilecrush_server" \
     TILECRUSH_REQUIRE_SERVER=1 npm test)
fi
echo "all tests passed"
