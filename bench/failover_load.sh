#!/usr/bin/env bash
# Failover under issue #25's load: the test command's failover test
# (tests/cluster/failover_test.cpp, cluster_failover_tests: two nodes on
# one PostgreSQL behind nginx, each SIGKILLed and started again in turn, 6
# kills, 16 tracked solo players and 4 rooms of 2) with its background load
# raised to the issue's: 400 players in a closed loop, and 1,000 players
# paced at 4 moves/s each (4,000 moves/s offered), each run --runs times,
# alternating. Prints the machine's load before each run, and the test's
# lines: per cycle the moves/s carried from the kill until every player was
# back and over the cycle, the reconnects of the tracked players and of the
# load (p50/p99/max, from the kill to a player's first acknowledged move
# after it), and players that found a lost move or a fork (must be 0); at
# the end every game of every player checked against the database. The
# test itself requires the p99 to be at most 5 s, for the tracked players
# and for everyone.
#
#   bench/failover_load.sh [--loads "400:0 1000:4"] [--runs K] [--bin DIR] [--out DIR]
#
# --loads: PLAYERS:RATE pairs (RATE moves/s per player; 0 a closed loop),
# passed as TILECRUSH_FAILOVER_LOAD_PLAYERS and _RATE. --bin: the build
# folder holding tests/cluster/cluster_failover_tests (default
# build/release; it runs the tilecrush_server it was built with). --out:
# where each run's whole output is kept (default a new /tmp folder).
#
# Needs: nginx and postgresql-15 (scripts/setup.sh --test), as the test does.
# Everything is on 127.0.0.1; each run starts and stops its own cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib_bench.sh"
read_options 2,25 "$@" <<EOF
--loads LOADS 400:0 1000:4
--runs RUNS 2
--bin BIN $ROOT/build/release
--out OUT
EOF
TEST="$BIN/tests/cluster/cluster_failover_tests"
[ -x "$TEST" ] || { echo "missing $TEST: cmake --build --preset release --target cluster_failover_tests" >&2; exit 1; }
OUT=${OUT:-$(mktemp -d /tmp/failover-load.XXXXXX)}
mkdir -p "$OUT"
# 1,000 players hold 1,000 connections in this process and two in nginx each.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

failed=0
for run in $(seq 1 "$RUNS"); do
  for load in $LOADS; do
    players=${load%%:*}
    rate=${load#*:}
    log="$OUT/run$run-$players-$rate.log"
    echo "== run $run: $players players, rate ${rate} moves/s each (0: closed loop); $(uptime | sed 's/.*load average/load average/')"
    status=0
    TILECRUSH_TEST_PG_REQUIRED=1 TILECRUSH_FAILOVER_LOAD_PLAYERS="$players" \
      TILECRUSH_FAILOVER_LOAD_RATE="$rate" "$TEST" >"$log" 2>&1 || status=$?
    grep -E '^failover:' "$log" || true
    if [ "$status" -ne 0 ]; then
      failed=1
      echo "FAILED (exit $status); the failure:"
      grep -E -A4 'Failure|FAILED' "$log" | head -40
    fi
  done
done
echo "whole output: $OUT"
exit "$failed"
