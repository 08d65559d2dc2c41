#!/usr/bin/env bash
# Memory through a day of play (issue 28): one release server under the
# peers' load generator (loadgen.mjs: closed loop, or paced with --paced)
# for a while, its resident memory (VmRSS from /proc/PID/status) sampled
# every few seconds. Prints the samples, the trend (least-squares slope
# over the last --trend-window seconds, MB/min) and a verdict, then stops
# the load and watches RSS come back down towards the idle server's.
#
#   bench/soak.sh [--duration S] [--players N] [--procs K] [--paced R]
#                 [--backend sqlite|pg|cluster] [--build DIR] [--peers DIR]
#                 [--port P] [--out DIR] [--short] [-- SERVER_ARGS...]
#
# Verdict (exit status 1 when any part fails):
#   - every sample after --flat-after seconds (default 60) is at most
#     --max-rss MB (default 256), on every node;
#   - the slope over the last --trend-window seconds (default: all but the
#     first two minutes; for 10 minutes, the last 8) is at most
#     --max-slope MB/min (default 1);
#   - within --settle seconds (default 60) of the load stopping, RSS is at
#     most 2x the idle server's (measured 3 s after it started, before any
#     connection), on every node.
# --short is the test command's version (scripts/test.sh, stage 1): 60 s
# of load sampled every 2 s, flat after 20 s, slope over the last 40 s at
# most 30 MB/min (the leak of issue 28 grew 700 MB a minute; a noisy
# 2-core machine moves a few MB either way), at most 256 MB, and back
# within 2x of idle within 20 s.
# --paced R plays R moves a second in all (1,000 players, or --players N,
# each paced to R/N a second) instead of the closed loop.
# --backend pg runs the server on a throw-away PostgreSQL
# (scripts/pg_scratch.sh); cluster runs two nodes behind nginx on one
# (scripts/cluster.sh) and samples each node.
#
# Needs: a release build of tilecrush_server (and bench's tilecrush_load)
# and Node.js 20. The peers' load generator, not part of this repository,
# is used where --peers DIR or TILECRUSH_PEERS names its folder; otherwise
# the load is tilecrush_load. When that folder has no node_modules, it is
# copied into the build folder once and `npm ci` installs its one package
# (ws) there. Exit status 77: no load generator or no node (the test
# command skips then).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib_bench.sh"
# The test command's version (see above).
short() { DUR=60; SAMPLE=2; FLAT_AFTER=20; WINDOW=40; MAX_SLOPE=30; SETTLE=20; }
read_options 2,37 "$@" <<EOF
--duration DUR 600
--players PLAYERS
--procs PROCS 2
--paced PACED
--backend BACKEND sqlite
--build BUILD $ROOT/build/release
--peers PEERS ${TILECRUSH_PEERS:-}
--port PORT 0
--out OUT
--sample SAMPLE 10
--flat-after FLAT_AFTER 60
--trend-window WINDOW
--max-slope MAX_SLOPE 1
--max-rss MAX_RSS 256
--settle SETTLE 60
--mode MODE same
--preset PRESET classic
--short short()
EOF
SERVER_ARGS=("${OPTION_REST[@]}")
[ -n "$WINDOW" ] || WINDOW=$((DUR > 160 ? DUR - 120 : DUR / 2))
if [ -z "$PLAYERS" ]; then
  if [ -n "$PACED" ]; then PLAYERS=1000; else PLAYERS=400; fi
fi
OUT=${OUT:-$(mktemp -d /tmp/tilecrush-soak.XXXXXX)}
mkdir -p "$OUT"
chmod 755 "$OUT"  # PostgreSQL's own user (scripts/pg_scratch.sh) must reach OUT/pg
SERVER="$BUILD/server/tilecrush_server"
[ -x "$SERVER" ] || { echo "missing $SERVER: build it first" >&2; exit 1; }
command -v node >/dev/null || { echo "soak: no node on the PATH: skipped" >&2; exit 77; }
# Without the peers' folder the load is this repository's own closed-loop
# player (bench's tilecrush_load), so that the test command's short soak
# runs on any clone; the figures in bench/README.md are the peers'.
LOADER=peers
OWN_LOAD="$BUILD/bench/tilecrush_load"
if [ ! -f "$PEERS/loadgen.mjs" ]; then
  if [ -x "$OWN_LOAD" ]; then
    LOADER=own
    echo "soak: no peers folder at $PEERS (loadgen.mjs; not part of this repository):" \
         "the load is $OWN_LOAD instead (--peers DIR or TILECRUSH_PEERS names the folder)" >&2
  else
    echo "soak: no peers folder at $PEERS (loadgen.mjs) and no $OWN_LOAD:" \
         "name it with --peers DIR or TILECRUSH_PEERS: skipped" >&2
    exit 77
  fi
fi
if [ "$LOADER" = peers ] && [ ! -d "$PEERS/node_modules/ws" ]; then
  # The shared folder may be read-only: install into a copy, once.
  copy="$BUILD/soak-peers"
  if [ ! -d "$copy/node_modules/ws" ] || ! cmp -s "$PEERS/loadgen.mjs" "$copy/loadgen.mjs"; then
    rm -rf "$copy" && mkdir -p "$copy"
    cp "$PEERS"/*.mjs "$PEERS"/package*.json "$copy/"
    chmod -R u+w "$copy"
    (cd "$copy" && npm ci --no-audit --no-fund --silent >/dev/null)
  fi
  PEERS=$copy
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

PIDS=()   # the server processes sampled
NAMES=()
URL=""
METRICS=()
cleanup() {
  # One server of its own (sqlite, pg); the cluster's nodes are cluster.sh's.
  [ "$BACKEND" = cluster ] || stop_pid "${PIDS[0]:-}"
  case "$BACKEND" in
    pg) "$ROOT/scripts/pg_scratch.sh" stop "$OUT/pg" >/dev/null 2>&1 || true ;;
    cluster) "$ROOT/scripts/cluster.sh" stop "$OUT/cluster" >/dev/null 2>&1 || true ;;
  esac
  [ -n "${SAMPLER:-}" ] && kill "$SAMPLER" 2>/dev/null || true
}
trap cleanup EXIT

ARGS=(--rate 100000 --max-connections 30000 --max-connections-per-address 30000 "${SERVER_ARGS[@]}")
start_single() { # db
  local log="$OUT/server.log"
  "$SERVER" --bind 127.0.0.1 --port "$PORT" --db "$1" --static "" "${ARGS[@]}" >"$log" 2>&1 &
  PIDS=($!)
  NAMES=(server)
  local port
  port=$(port_from_log "$log" 'http://127.0.0.1:' 200) || exit 1
  URL="ws://127.0.0.1:$port/ws"
  METRICS=("http://127.0.0.1:$port/metrics")
}
case "$BACKEND" in
  sqlite) start_single "$OUT/db/tilecrush.db" ;;
  pg) start_single "$("$ROOT/scripts/pg_scratch.sh" start "$OUT/pg")" ;;
  cluster)
    cport=()
    [ "$PORT" != 0 ] && cport=(--port "$PORT")
    "$ROOT/scripts/cluster.sh" start "$OUT/cluster" --binary "$SERVER" "${cport[@]}" -- "${ARGS[@]}" >"$OUT/cluster.out"
    # shellcheck disable=SC1091
    . "$OUT/cluster/cluster.env"
    URL="ws://127.0.0.1:$NGINX_PORT/ws"
    for n in $NODES; do
      p="NODE_${n}_PID"; q="NODE_${n}_PORT"
      PIDS+=("${!p}"); NAMES+=("$n"); METRICS+=("http://127.0.0.1:${!q}/metrics")
    done ;;
  *) echo "unknown backend $BACKEND" >&2; exit 2 ;;
esac

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_all() { local out=""; for p in "${PIDS[@]}"; do out+=" $(rss_kb "$p")"; done; echo "$out"; }
live_games() { local out=""; for m in "${METRICS[@]}"; do
  out+=" $(curl -s --max-time 5 "$m" | awk '/^tilecrush_live_games / {print $2}')"; done; echo "$out"; }

sleep 3
IDLE=$(rss_all)
LOAD_START=$(cat /proc/loadavg)
LOOP="closed loop"
[ -n "$PACED" ] && LOOP="paced $PACED moves/s"
echo "soak: $BACKEND, ${#PIDS[@]} node(s), $PLAYERS players, $MODE $PRESET, $LOOP," \
     "$DUR s; idle RSS (KB):$IDLE; load average $LOAD_START"

# The sampler: "seconds since the load started" and each node's RSS (KB).
SAMPLES="$OUT/samples.txt"
: >"$SAMPLES"
T0=$(date +%s.%N)
(
  next=0
  while :; do
    now=$(date +%s.%N)
    t=$(awk -v a="$now" -v b="$T0" 'BEGIN {printf "%.1f", a - b}')
    echo "$t$(rss_all)" >>"$SAMPLES"
    next=$((next + SAMPLE))
    s=$(awk -v n="$next" -v a="$(date +%s.%N)" -v b="$T0" 'BEGIN {d = n - (a - b); print (d > 0 ? d : 0)}')
    sleep "$s"
  done
) &
SAMPLER=$!

RATE=()
[ -n "$PACED" ] && RATE=(--rate "$(awk -v r="$PACED" -v n="$PLAYERS" 'BEGIN {printf "%.4f", r / n}')")
set +e
if [ "$LOADER" = own ]; then
  OWN_RATE=()
  [ -n "$PACED" ] && OWN_RATE=(--move-rate "$(awk -v r="$PACED" -v n="$PLAYERS" 'BEGIN {printf "%.4f", r / n}')")
  LOAD_PORT=${URL#ws://127.0.0.1:}
  LOAD_PORT=${LOAD_PORT%%/*}
  "$OWN_LOAD" --port "$LOAD_PORT" --players "$PLAYERS" --seconds "$DUR" --threads "$PROCS" \
    --mode "$MODE" "${OWN_RATE[@]}" --server-pid "${PIDS[0]}" >"$OUT/loadgen.log" 2>&1
else
  node "$PEERS/loadgen.mjs" --url "$URL" --players "$PLAYERS" --duration "$DUR" --procs "$PROCS" \
    --mode "$MODE" --preset "$PRESET" "${RATE[@]}" --server-pid "${PIDS[0]}" \
    --json-out "$OUT/loadgen.json" >"$OUT/loadgen.log" 2>&1
fi
LG=$?
set -e
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
SAMPLER=""
LOAD_END=$(cat /proc/loadavg)
LIVE_END=$(live_games)
tail -n 3 "$OUT/loadgen.log"
[ "$LG" = 0 ] || echo "soak: the load generator exited with status $LG (see $OUT/loadgen.log)"

# After the load: every 5 s until every node is within 2x of its idle RSS.
AFTER="$OUT/after.txt"
: >"$AFTER"
BACK=""
for i in $(seq 0 5 "$SETTLE"); do
  [ "$i" = 0 ] || sleep 5
  now=$(rss_all)
  echo "$i$now" >>"$AFTER"
  if awk -v idle="$IDLE" -v now="$now" 'BEGIN {n = split(idle, a); split(now, b);
       for (i = 1; i <= n; i++) if (b[i] > 2 * a[i]) exit 1; exit 0}'; then
    BACK=$i
    break
  fi
done
LIVE_AFTER=$(live_games)

echo
echo "| t (s) | RSS MB ($(IFS=/; echo "${NAMES[*]}")) |"
echo "|---:|---|"
awk '{ s = ""; for (i = 2; i <= NF; i++) s = s (i > 2 ? " / " : "") sprintf("%.1f", $i / 1024);
       printf "| %s | %s |\n", $1, s }' "$SAMPLES"
echo
echo "after the load stopped (s, RSS MB):" \
  "$(awk '{ s = ""; for (i = 2; i <= NF; i++) s = s (i > 2 ? "/" : "") sprintf("%.1f", $i / 1024);
            printf "%s%s %s", (NR > 1 ? "; " : ""), $1, s }' "$AFTER")"
echo "live games: at the end of the load$LIVE_END, after$LIVE_AFTER"
echo "load average: before $LOAD_START; at the end $LOAD_END"

# The verdict, node by node.
FAIL=0
for k in $(seq 2 $((${#PIDS[@]} + 1))); do
  name=${NAMES[$((k - 2))]}
  idle=$(echo "$IDLE" | awk -v k=$((k - 1)) '{print $k}')
  read -r slope peak n < <(awk -v k="$k" -v from="$((DUR - WINDOW))" -v flat="$FLAT_AFTER" -v end="$DUR" '
    $1 >= flat && $1 <= end + 1 && $k > peak { peak = $k }
    $1 >= from && $1 <= end + 1 { x = $1 / 60; y = $k / 1024; n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
    END { d = n * sxx - sx * sx; printf "%.2f %.1f %d\n", (n > 1 && d > 0 ? (n * sxy - sx * sy) / d : 0), peak / 1024, n }' "$SAMPLES")
  verdict=flat
  awk -v s="$slope" -v m="$MAX_SLOPE" 'BEGIN {exit !(s > m)}' && { verdict="GROWING"; FAIL=1; }
  [ "$n" -ge 3 ] || { verdict="too few samples ($n)"; FAIL=1; }
  bound=ok
  awk -v p="$peak" -v m="$MAX_RSS" 'BEGIN {exit !(p > m)}' && { bound="OVER ${MAX_RSS} MB"; FAIL=1; }
  echo "$name: slope over the last $WINDOW s ($n samples) $slope MB/min (at most $MAX_SLOPE): $verdict;" \
       "peak after ${FLAT_AFTER} s $peak MB (at most $MAX_RSS): $bound; idle $(awk -v i="$idle" 'BEGIN {printf "%.1f", i / 1024}') MB"
done
if [ -n "$BACK" ]; then
  echo "back within 2x of the idle RSS $BACK s after the load stopped"
else
  echo "NOT back within 2x of the idle RSS within $SETTLE s of the load stopping"
  FAIL=1
fi
[ "$LG" = 0 ] || FAIL=1
echo "soak: $([ "$FAIL" = 0 ] && echo PASS || echo FAIL) (files in $OUT)"
exit "$FAIL"
