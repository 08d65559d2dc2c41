#!/usr/bin/env bash
# Side by side, in one run on one machine: tilecrush, the Node.js peer
# (node-ws-server.mjs, everything in memory) and the
# transport floor (bench/floor_server.cpp), each driven by the peer's load
# generator (loadgen.mjs) for Same Game `classic` and
# match-3 `classic`. A fresh server for every run; tilecrush on a fresh
# SQLite file in a temporary folder. Prints a markdown table (CPU per
# acknowledged move is the figure that compares servers on shared cores),
# then where tilecrush's CPU went, thread by thread.
#
#   bench/peer_compare.sh [--players N] [--duration S] [--warmup S] [--procs K]
#                         [--modes "same match3"] [--build DIR] [--peers DIR]
#                         [--out DIR] [--rate R] [--kinds "tilecrush peer floor"]
#
# Needs: a release build of tilecrush_server and floor_server
# (cmake --build build/release --target tilecrush_server floor_server),
# Node.js, and the peers folder with `ws` installed (copied to a writable
# place and `npm install`ed when --peers is not writable).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib_bench.sh"
# The peers are not part of this repository: --peers DIR or TILECRUSH_PEERS.
read_options 2,19 "$@" <<EOF
--players PLAYERS 400
--duration DUR 10
--warmup WARMUP 3
--procs PROCS 2
--modes MODES same match3
--build BUILD $ROOT/build/release
--peers PEERS ${TILECRUSH_PEERS:-}
--out OUT
--rate RATE
--kinds ONLY
EOF
OUT=${OUT:-$(mktemp -d /tmp/peer-compare.XXXXXX)}
mkdir -p "$OUT"
[ -x "$BUILD/server/tilecrush_server" ] ||
  { echo "missing tilecrush_server in $BUILD: build it first" >&2; exit 1; }
KINDS="tilecrush peer floor"
if [ ! -x "$BUILD/bench/floor_server" ]; then
  echo "(no floor_server in $BUILD: the floor is left out)" >&2
  KINDS="tilecrush peer"
fi
[ -n "$ONLY" ] && KINDS=$ONLY
if [ ! -f "$PEERS/loadgen.mjs" ] || [ ! -f "$PEERS/node-ws-server.mjs" ]; then
  echo "no peers folder at $PEERS (loadgen.mjs, node-ws-server.mjs): it is not part of the" >&2
  echo "repository; name it with --peers DIR" >&2
  exit 1
fi
if [ ! -d "$PEERS/node_modules/ws" ]; then
  # The shared folder may be read-only: install into a copy.
  cp -r "$PEERS" "$OUT/peers"
  PEERS="$OUT/peers"
  (cd "$PEERS" && npm install --no-audit --no-fund >/dev/null)
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

SERVER_PID=""
PORT=""
stop_server() {
  stop_pid "$SERVER_PID"
  SERVER_PID=""
}
trap stop_server EXIT

wait_port() { # log prefix
  PORT=$(port_from_log "$1" "$2" 200) || exit 1
}

start_server() { # kind
  local log="$OUT/$1.log"
  case "$1" in
    tilecrush)
      rm -rf "$OUT/db" && mkdir -p "$OUT/db"
      "$BUILD/server/tilecrush_server" --bind 127.0.0.1 --port 0 --db "$OUT/db/tilecrush.db" --static "" \
        --rate 100000 --max-connections 30000 --max-connections-per-address 30000 > "$log" 2>&1 &
      SERVER_PID=$!
      wait_port "$log" 'http://127.0.0.1:' ;;
    peer)
      node "$PEERS/node-ws-server.mjs" --port 0 > "$log" 2>&1 &
      SERVER_PID=$!
      wait_port "$log" 'ws://127.0.0.1:' ;;
    floor)
      "$BUILD/bench/floor_server" --port 0 --threads 2 > "$log" 2>&1 &
      SERVER_PID=$!
      wait_port "$log" 'ws://127.0.0.1:' ;;
  esac
  sleep 0.3
}

# Thread CPU ticks of a process: "tid name ticks" lines.
thread_ticks() {
  for t in /proc/"$1"/task/*; do
    [ -r "$t/stat" ] || continue
    local stat comm
    stat=$(cat "$t/stat" 2>/dev/null) || continue
    comm=$(cat "$t/comm" 2>/dev/null) || continue
    # Fields after the ")" : state is 3rd; utime 14th, stime 15th overall.
    local rest=${stat##*) }
    set -- $rest
    echo "${t##*/} $comm ${12} ${13}"
  done
}

run() { # kind mode
  start_server "$1"
  local json="$OUT/$1-$2.json"
  local rate_args=()
  [ -n "$RATE" ] && rate_args=(--rate "$RATE")
  node "$PEERS/loadgen.mjs" --url "ws://127.0.0.1:$PORT/ws" --mode "$2" --preset classic \
    --players "$PLAYERS" --procs "$PROCS" --duration "$DUR" --warmup "$WARMUP" \
    --server-pid "$SERVER_PID" --json-out "$json" "${rate_args[@]}" > "$OUT/$1-$2.lg.log" 2>&1 &
  local lg=$!
  # The per-thread split over (about) the measured window, for every server:
  # tilecrush's by thread, and each server's share of CPU in the kernel.
  sleep "$(echo "$WARMUP + 1.5" | bc)"
  thread_ticks "$SERVER_PID" > "$OUT/threads-$1-$2.before"
  wait "$lg" || true
  thread_ticks "$SERVER_PID" > "$OUT/threads-$1-$2.after"
  tail -1 "$OUT/$1-$2.lg.log"
  stop_server
}

for mode in $MODES; do
  for kind in $KINDS; do run "$kind" "$mode"; done
done

node - "$OUT" "$MODES" "$(getconf CLK_TCK)" <<'EOF'
const fs = require('fs');
const [dir, modes, tck] = [process.argv[2], process.argv[3].split(' '), Number(process.argv[4])];
const read = (f) => { try { return JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')); } catch { return null; } };
const us = (r) => r && r.server && r.server.cpu_s && r.moves_acknowledged
  ? (r.server.cpu_s / r.moves_acknowledged) * 1e6 : NaN;
// Per thread name: { threads, u, s } clock ticks between the two samples.
const threadSplit = (kind, mode) => {
  const parse = (f) => {
    const m = new Map();
    try {
      for (const line of fs.readFileSync(`${dir}/${f}`, 'utf8').trim().split('\n')) {
        const [tid, name, u, s] = line.split(' ');
        m.set(tid, { name, u: Number(u), s: Number(s) });
      }
    } catch { }
    return m;
  };
  const before = parse(`threads-${kind}-${mode}.before`), after = parse(`threads-${kind}-${mode}.after`);
  const byName = new Map();
  for (const [tid, a] of after) {
    const b = before.get(tid) || { u: 0, s: 0 };
    const u = a.u - b.u, s = a.s - b.s;
    if (u + s === 0) continue;
    const e = byName.get(a.name) || { threads: 0, u: 0, s: 0 };
    e.threads += 1; e.u += u; e.s += s;
    byName.set(a.name, e);
  }
  return byName;
};
// The kernel's share of a server's CPU over the window (NaN when unknown).
const kernelShare = (kind, mode) => {
  let u = 0, s = 0;
  for (const e of threadSplit(kind, mode).values()) { u += e.u; s += e.s; }
  return u + s ? s / (u + s) : NaN;
};
console.log('\n| mode | server | moves/s | server CPU µs/move | of it kernel µs | p50 ms | p99 ms | server RSS MiB | errors | divergences |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
const cost = {};
for (const mode of modes) {
  cost[mode] = {};
  for (const kind of ['tilecrush', 'peer', 'floor']) {
    const r = read(`${kind}-${mode}.json`);
    if (!r) continue;
    cost[mode][kind] = us(r);
    const errors = typeof r.errors === 'object' ? Object.values(r.errors).reduce((a, b) => a + b, 0) : r.errors;
    console.log(`| ${mode} | ${kind} | ${r.moves_per_s.toFixed(0)} | ${us(r).toFixed(1)} | `
      + `${(kernelShare(kind, mode) * us(r)).toFixed(1)} | ${r.latency_ms.p50} | ${r.latency_ms.p99} | `
      + `${r.server && r.server.rss_kb ? (r.server.rss_kb / 1024).toFixed(1) : '?'} | ${errors} | ${r.divergences} |`);
  }
}
console.log('');
for (const mode of modes) {
  const c = cost[mode];
  console.log(`${mode}: tilecrush costs ${(c.tilecrush / c.peer).toFixed(2)} times the peer per move `
    + '(goal at most 0.33)' + (c.floor ? `, ${(c.tilecrush / c.floor).toFixed(2)} times the transport floor.` : '.'));
}
for (const mode of modes) {
  const byName = threadSplit('tilecrush', mode);
  let total = 0;
  for (const e of byName.values()) total += e.u + e.s;
  const r = read(`tilecrush-${mode}.json`);
  const perMove = us(r);
  if (!total || !perMove) continue;
  console.log(`\ntilecrush ${mode}, CPU by thread (share of the window, scaled to µs per move):`);
  console.log('| thread | threads | share | µs/move | of it in the kernel |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, e] of [...byName].sort((x, y) => (y[1].u + y[1].s) - (x[1].u + x[1].s))) {
    const share = (e.u + e.s) / total;
    // Asio's thread pools (the storage reads of server/README.md) keep the
    // process's name, cut to 15 characters by the kernel.
    const label = name.startsWith('tc-') ? name : `${name} (read pools, main)`;
    console.log(`| ${label} | ${e.threads} | ${(share * 100).toFixed(1)}% | ${(share * perMove).toFixed(1)} | `
      + `${((e.s / (e.u + e.s)) * 100).toFixed(0)}% |`);
  }
}
console.log(`\n(reports in ${dir})`);
EOF
