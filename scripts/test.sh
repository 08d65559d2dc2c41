#!/usr/bin/env bash
# Sets up and runs every test (SECURITY.md names the test behind each
# promise, by these stage numbers):
#   1. the formatting check first, so that it fails fast
#      (scripts/check_format.sh: every tracked C++ file as .clang-format
#      says, clang-format-14); game/'s purity (scripts/check_game_pure.sh:
#      no clock, randomness, threads or I/O); the OpenAPI document and the WebSocket
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
#      server after some traffic); the short memory soak (bench/soak.sh
#      --short: a minute of load, RSS must stay flat and come back down);
#   2. the same CTest suites under ASan+UBSan (`asan` preset, build/asan):
#      everything but the install-prefix test, which checks the plain
#      release image (tests/docker/CMakeLists.txt leaves it out of
#      sanitizer builds), and the server and crash suites' repeats on
#      PostgreSQL (label postgres_integration: the PostgreSQL code they
#      reach runs here in the pg. storage suites and the cluster tests);
#      the cluster tests run the ASan server as their nodes;
#   3. the storage, server integration, rooms and crash tests under
#      ThreadSanitizer (`tsan` preset, build/tsan; only storage_tests,
#      server_tests and crash_tests are built, `ctest -L 'server|storage'`);
#   4. a short run of each libFuzzer target (clang, ASan+UBSan; see
#      tests/fuzz/README.md for longer runs);
#   5. the browser tests (Debian chromium driven by playwright-core; every
#      WebSocket message of every page is checked against protocol/schema).
# Stops at the first failing stage; a sanitizer report fails its test.
# TILECRUSH_SKIP_BROWSER=1 skips stage 5.
# The image stage, after stage 1 and beside stages 2 and 3 (tests/docker/image_test.sh; 128-137 s
# on these 2 cores at load 20 with its caches warm, 433 s once on a fresh
# machine, for debootstrap and the PostgreSQL and nginx stand-ins, which it
# keeps in /var/cache/tilecrush-image and /var/tmp/tilecrush-image-test):
# the image's runtime stage from stage 1's release build, run
# with podman as an operator would (health, a game over the published
# port, SIGTERM and a new container on the volume, /metrics), then
# docker/compose.yml and docker/compose.cluster.yml under podman-compose.
# TILECRUSH_SKIP_IMAGE=1 skips it.
#
#   scripts/test.sh           every stage (what CI runs: .ci/run)
#   scripts/test.sh --quick   stage 1 only, the everyday subset: no
#                             sanitizers, fuzzers or browser (nor chromium
#                             in the setup)
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall time, printed as it ends and again in a summary at the
# end (or at a failure): CI's budget is watched by these lines.
stage_name=""
stage_start=$SECONDS
stage_times=()
stage() {
  local now=$SECONDS
  if [[ -n "$stage_name" ]]; then
    stage_times+=("$(printf '%5d s  %s' $((now - stage_start)) "$stage_name")")
    echo "   ($stage_name: $((now - stage_start)) s)"
  fi
  stage_name="$1"
  stage_start=$now
  [[ -n "$1" ]] && echo "== $1"
  return 0
}
stage_summary() {
  stage ""
  echo "== stage times (total $SECONDS s)"
  local line
  for line in "${stage_times[@]}"; do echo "$line"; done
}

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

stage "setup"
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
trap 'rc=$?; if [[ -n "${image_pid:-}" ]]; then kill "$image_pid" 2>/dev/null; wait "$image_pid" 2>/dev/null; fi; if ((rc)) && [[ -f $pg_dir/log ]]; then echo "== PostgreSQL log (last 40 lines)"; tail -n 40 "$pg_dir/log"; fi; scripts/pg_scratch.sh stop "$pg_dir"; stage_summary' EXIT
TILECRUSH_TEST_PG_URL=$(scripts/pg_scratch.sh start "$pg_dir")
export TILECRUSH_TEST_PG_URL TILECRUSH_TEST_PG_REQUIRED=1
echo "PostgreSQL for the pg. tests: $TILECRUSH_TEST_PG_URL"

stage "1/5 formatting and the contract's documents"
scripts/check_format.sh
scripts/check_game_pure.sh
node tests/schema/lint_openapi.mjs
node tests/schema/lint_ws_schemas.mjs
node tests/schema/check_doc_examples.mjs
stage "1/5 release build"
scripts/build.sh release
stage "1/5 release tests, /metrics"
ctest --preset release -j "$(nproc)"
scripts/check_metrics.sh build/release
stage "1/5 memory soak (short)"
# Memory under load (bench/soak.sh --short, about 75 s, after the CTest
# suites so that nothing else runs beside it): a minute of the peers' load
# generator; RSS flat after 20 s, under 256 MB, and back within 2x of the
# idle server's after. The load is bench's own tilecrush_load, or the
# peers' load generator where TILECRUSH_PEERS names its folder; skipped
# (77) only without node.
soak_rc=0
bench/soak.sh --short --build build/release || soak_rc=$?
if ((soak_rc == 77)); then echo "soak: SKIPPED (no load generator)"; elif ((soak_rc)); then exit "$soak_rc"; fi

if [[ "$quick" == "1" ]]; then
  echo "quick tests passed (stage 1 of 5; scripts/test.sh adds sanitizers, fuzzers and the browser)"
  exit 0
fi

# The image stage waits mostly on debootstrap, apt and podman's copies, not
# on the cores: it runs in the background beside stages 2 and 3 (which
# compile), and stage 4 begins only after it has passed.
image_pid=""
if [[ "${TILECRUSH_SKIP_IMAGE:-0}" != "1" ]]; then
  image_log=$(mktemp /tmp/tilecrush-image-test-XXXXXX.log)
  echo "== image: the release build in the image, run with podman, compose and the cluster"
  echo "   (in the background beside stages 2 and 3; its log: $image_log)"
  (image_start=$SECONDS
   rc=0
   tests/docker/image_test.sh build/release || rc=$?
   echo "image stage: $((SECONDS - image_start)) s in the background"
   exit "$rc") >"$image_log" 2>&1 &
  image_pid=$!
fi

stage "2/5 ASan+UBSan build"
scripts/build.sh asan
stage "2/5 all tests under ASan+UBSan"
ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -LE postgres_integration -j "$(nproc)"

stage "3/5 TSan build"
# gcc 12's TSan needs its own address layout, which kernels randomising
# mmap with more than 28 bits break; ASLR is turned off for this stage
# (the build runs the tests to list them) where the sandbox permits it.
# Nothing is suppressed: a report anywhere, SQLite and Boost included,
# fails its test. (The preset only mutes gcc's -Wtsan, which warns about
# every Asio fence; Asio synchronises with mutexes, which TSan follows.)
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi
"${no_aslr[@]}" scripts/build.sh tsan --target storage_tests server_tests crash_tests
stage "3/5 storage, server, rooms and crash tests under TSan"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  "${no_aslr[@]}" ctest --preset tsan -L 'server|storage' -j "$(nproc)"

if [[ -n "$image_pid" ]]; then
  stage "image: waiting for the image stage"
  if wait "$image_pid"; then
    image_pid=""
    tail -n 5 "$image_log"
  else
    image_pid=""
    cat "$image_log"
    echo "the image stage failed (its log above)" >&2
    exit 1
  fi
fi

stage "4/5 fuzz targets, 12 s each"
scripts/fuzz.sh 12

if [[ "${TILECRUSH_SKIP_BROWSER:-0}" != "1" ]]; then
  stage "5/5 browser tests"
  (cd tests/browser && TILECRUSH_SERVER="$PWD/../../build/release/server/tilecrush_server" \
     TILECRUSH_REQUIRE_SERVER=1 npm test)
fi
echo "all tests passed"
