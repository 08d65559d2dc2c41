#!/usr/bin/env bash
# SQLite against PostgreSQL, and one node against two on one PostgreSQL
# database, in one run on one machine, all on 127.0.0.1. A throw-away
# PostgreSQL 15 cluster (scripts/pg_scratch.sh) with a fresh database for
# every run; a fresh SQLite file for every SQLite run. Each configuration
# is driven by tilecrush_load, closed loop and paced at a few offered
# rates, repeated (alternating configurations) so that the spread shows;
# then the paced rate on PostgreSQL is raised until throughput or p99
# breaks. Prints markdown tables.
#
#   bench/pg_compare.sh [--players N] [--paced-players N] [--duration S]
#                       [--warmup S] [--modes "same"] [--configs "sqlite pg pg2"]
#                       [--rates "1000 2000 4000"] [--repeat K]
#                       [--ramp "2000 3000 4000 5000 6000 8000"]
#                       [--ramp-configs "pg pg2"] [--break-p99 MS]
#                       [--bin DIR] [--out DIR] [--statements]
#                       [--server-cpus LIST --pg-cpus LIST] [--node-quota CORES]
#
# Configurations: sqlite (one node, a SQLite file), pg (one node on
# PostgreSQL), pg2 (two nodes, --node-id a and b, on one PostgreSQL
# database, half the players on each node's port, one tilecrush_load each),
# pgasync (one node on a database with synchronous_commit off: what the
# WAL fsync costs), pgfresh (one node on PostgreSQL, measured without the
# ANALYZE that the others get after their warm-up: a database in its
# first minute, whose sessions keep the plans of an empty table).
# Measured over a window inside the load tool's own (after a separate
# warm-up run of --warmup seconds): moves/s as the servers
# counted them (tilecrush_moves_total), latency from tilecrush_load (two
# nodes: p50 weighted by moves, p99 the worse node); CPU from /proc: the
# server process(es), their writer thread(s) (tc-writer), and every
# process of this cluster (the postmaster, its children, and what it
# reaped), each divided by the moves the servers counted in the window; commits from the servers' /metrics
# (tilecrush_db_batches_total, tilecrush_db_ops_total,
# tilecrush_db_commit_seconds_total).
# --statements also loads pg_stat_statements into the cluster and prints,
# for every PostgreSQL run, where PostgreSQL's time went in the window:
# each statement's calls and execution time per move, beside the cluster's
# CPU per move (execution time is wall time inside the executor, so it
# includes waits for locks and I/O; what CPU is left over is commits,
# the protocol, planning, and background processes).
#
# --server-cpus and --pg-cpus (taskset's CPU lists, e.g. 0 and 1) pin the
# servers and load tools to the first list and every process of the
# PostgreSQL cluster to the second, in every configuration (SQLite's runs
# then leave the second idle): the database on cores of its own, as it is
# where it runs on a machine of its own, so that a PostgreSQL run and a
# SQLite run give the server and its load the same CPUs.
#
# --node-quota CORES (e.g. 0.3) gives every server process a CPU budget of
# its own: a cgroup per node whose CPU quota is CORES cores (over 10 ms
# periods; load tools and PostgreSQL are not limited). It answers the
# question several nodes are for: when each node has its own CPUs (a
# machine of its own), does a second node on the same database add
# capacity? Without it, on a small machine, two nodes split the CPUs one
# node already uses, so they can only match it. Needs write access to the
# cgroup tree (root; cgroup v1's cpu controller or v2's cpu.max).
#
# Needs: tilecrush_server and tilecrush_load built with PostgreSQL (--bin DIR,
# default build/release's server/ and bench/, or /tmp/bench-bin), postgresql-15
# (scripts/setup.sh --test), python3, curl. Everything started is stopped on
# exit, failure included.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib_bench.sh"
STATEMENTS=""
statements_on() { STATEMENTS=1; }
read_options 2,61 "$@" <<EOF
--players PLAYERS 400
--paced-players PACED_PLAYERS 1000
--duration DUR 8
--warmup WARMUP 2
--modes MODES same
--configs CONFIGS sqlite pg pg2
--rates RATES 1000 2000 4000
--repeat REPEAT 2
--ramp RAMP 2000 3000 4000 5000 6000 8000
--ramp-configs RAMP_CONFIGS pg pg2
--break-p99 BREAK_P99 100
--bin BIN
--out OUT
--statements statements_on()
--server-cpus SERVER_CPUS
--pg-cpus PG_CPUS
--node-quota NODE_QUOTA
EOF
if [ -n "$SERVER_CPUS$PG_CPUS" ] && { [ -z "$SERVER_CPUS" ] || [ -z "$PG_CPUS" ]; }; then
  echo "pg_compare: --server-cpus and --pg-cpus go together" >&2; exit 2
fi
ON_SERVER_CPUS=()
[ -n "$SERVER_CPUS" ] && ON_SERVER_CPUS=(taskset -c "$SERVER_CPUS")
# --node-quota: where the nodes' cgroups are made, and how a quota is written.
CG_PARENT=""
CG_NAMES=()
if [ -n "$NODE_QUOTA" ]; then
  python3 -c "import sys; sys.exit(not 0 < float(sys.argv[1]) <= 64)" "$NODE_QUOTA" 2>/dev/null ||
    { echo "pg_compare: --node-quota takes cores, e.g. 0.3" >&2; exit 2; }
  if [ -w /sys/fs/cgroup/cpu ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    CG_PARENT=/sys/fs/cgroup/cpu
  elif [ -w /sys/fs/cgroup ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    CG_PARENT=/sys/fs/cgroup
  else
    echo "pg_compare: --node-quota needs a writable cgroup cpu controller (run as root)" >&2; exit 2
  fi
fi
# A new cgroup limited to NODE_QUOTA cores, its directory in CG_DIR.
node_cgroup() {
  local dir quota
  dir="$CG_PARENT/tilecrush-pg-compare-$$-${#CG_NAMES[@]}"
  mkdir "$dir"
  CG_NAMES+=("$dir")
  quota=$(python3 -c "print(round(float('$NODE_QUOTA') * 10000))")
  if [ -e "$dir/cpu.cfs_quota_us" ]; then
    echo 10000 > "$dir/cpu.cfs_period_us"
    echo "$quota" > "$dir/cpu.cfs_quota_us"
  else
    echo "$quota 10000" > "$dir/cpu.max"
  fi
  CG_DIR=$dir
}
remove_cgroups() {
  local d
  for d in "${CG_NAMES[@]}"; do rmdir "$d" 2>/dev/null || true; done
  CG_NAMES=()
}
if [ -n "$BIN" ]; then
  SERVER="$BIN/tilecrush_server"; LOAD="$BIN/tilecrush_load"
  [ -x "$SERVER" ] || SERVER="$BIN/server/tilecrush_server"
  [ -x "$LOAD" ] || LOAD="$BIN/bench/tilecrush_load"
elif [ -x "$ROOT/build/release/server/tilecrush_server" ]; then
  SERVER="$ROOT/build/release/server/tilecrush_server"; LOAD="$ROOT/build/release/bench/tilecrush_load"
else
  SERVER=/tmp/bench-bin/tilecrush_server; LOAD=/tmp/bench-bin/tilecrush_load
fi
for b in "$SERVER" "$LOAD"; do
  [ -x "$b" ] || { echo "missing $b: build tilecrush_server and tilecrush_load, or name them with --bin" >&2; exit 1; }
done
OUT=${OUT:-$(mktemp -d /tmp/pg-compare.XXXXXX)}
mkdir -p "$OUT"
chmod 755 "$OUT"  # PostgreSQL's own user (scripts/pg_scratch.sh) must reach OUT/pg
OUT=$(cd "$OUT" && pwd)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
TCK=$(getconf CLK_TCK)

PGDIR="$OUT/pg"
SERVER_PIDS=()
SERVER_PORTS=()
LOAD_PIDS=()
stop_servers() {
  local p
  for p in "${LOAD_PIDS[@]}" "${SERVER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${LOAD_PIDS[@]}" "${SERVER_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  LOAD_PIDS=()
  SERVER_PIDS=()
  SERVER_PORTS=()
  remove_cgroups
}
cleanup() {
  stop_servers
  "$ROOT/scripts/pg_scratch.sh" stop "$PGDIR" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$STATEMENTS" ]; then
  export PG_SCRATCH_SETTINGS="shared_preload_libraries=pg_stat_statements pg_stat_statements.track=top"
fi
URL=$("$ROOT/scripts/pg_scratch.sh" start "$PGDIR")
PG_PORT=${URL##*:}; PG_PORT=${PG_PORT%%/*}
POSTMASTER=$(head -1 "$PGDIR/data/postmaster.pid")
if [ -n "$PG_CPUS" ]; then
  # The postmaster and the processes it has started; the backends it forks
  # later inherit its affinity.
  for p in "$POSTMASTER" $(pgrep -P "$POSTMASTER"); do taskset -a -p -c "$PG_CPUS" "$p" >/dev/null; done
  echo "pinned: servers and load tools on CPUs $SERVER_CPUS, PostgreSQL on CPUs $PG_CPUS" >&2
fi
[ -n "$NODE_QUOTA" ] && echo "every node limited to $NODE_QUOTA cores (cgroups under $CG_PARENT)" >&2
psql_admin() { psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U tilecrush -d tilecrush -v ON_ERROR_STOP=1 -c "$1" >/dev/null; }
echo "PostgreSQL $URL (postmaster $POSTMASTER); reports in $OUT" >&2
[ -n "$STATEMENTS" ] && psql_admin "CREATE EXTENSION pg_stat_statements"
# The database of the PostgreSQL run in progress (empty on SQLite).
RUN_DB=""
# --statements: the window's statements of RUN_DB, one a line (calls,
# execution ms, rows, WAL bytes, the statement on one line), into `file`.
statements_reset() {
  [ -n "$STATEMENTS" ] && [ -n "$RUN_DB" ] && psql_admin "SELECT pg_stat_statements_reset()"
  return 0
}
statements_dump() { # file
  [ -n "$STATEMENTS" ] && [ -n "$RUN_DB" ] || return 0
  psql -X -q -At -F $'\t' -h 127.0.0.1 -p "$PG_PORT" -U tilecrush -d tilecrush -c \
    "SELECT s.calls, round(s.total_exec_time::numeric, 3), s.rows, s.wal_bytes,
            regexp_replace(s.query, '\s+', ' ', 'g')
     FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid
     WHERE d.datname = '$RUN_DB' ORDER BY s.total_exec_time DESC" > "$1"
}

metric() { # port name: the value of an unlabelled metric
  curl -s --max-time 5 "http://127.0.0.1:$1/metrics" | awk -v n="$2" '$1 == n { print $2 }'
}

start_server() { # db node-id log
  local node_args=() in_cgroup=()
  [ -n "$2" ] && node_args=(--node-id "$2")
  # The shell enters the node's cgroup and becomes the server, so every
  # thread the server starts is inside it from the first.
  if [ -n "$NODE_QUOTA" ]; then
    node_cgroup
    in_cgroup=(sh -c 'echo $$ > "$0" && exec "$@"' "$CG_DIR/cgroup.procs")
  fi
  "${ON_SERVER_CPUS[@]}" "${in_cgroup[@]}" "$SERVER" --bind 127.0.0.1 --port 0 --db "$1" "${node_args[@]}" --static "" --threads 0 \
    --rate 100000 --max-connections 30000 --max-connections-per-address 30000 > "$3" 2>&1 &
  SERVER_PIDS+=($!)
  local port
  port=$(port_from_log "$3" 'http://127.0.0.1:' 300) || exit 1
  SERVER_PORTS+=("$port")
}

start_config() { # config run-id
  local db
  RUN_DB=""
  case "$1" in
    sqlite)
      rm -rf "$OUT/db-$2" && mkdir -p "$OUT/db-$2"
      start_server "$OUT/db-$2/tilecrush.db" "" "$OUT/$2.server.log" ;;
    pg|pg2|pgasync|pgfresh)
      db="r_${2//-/_}"
      RUN_DB=$db
      psql_admin "CREATE DATABASE $db"
      [ "$1" = pgasync ] && psql_admin "ALTER DATABASE $db SET synchronous_commit = off"
      if [ "$1" = pg2 ]; then
        start_server "${URL%/*}/$db" a "$OUT/$2.server-a.log"
        start_server "${URL%/*}/$db" b "$OUT/$2.server-b.log"
      else
        start_server "${URL%/*}/$db" "" "$OUT/$2.server.log"
      fi ;;
    *) echo "unknown configuration $1" >&2; exit 2 ;;
  esac
}

# Two lines: the time, server ticks, writer-thread ticks and the ticks of
# every process of this PostgreSQL cluster; then the servers' summed moves,
# batches, ops and commit seconds (one /metrics request per server, all
# read right after the ticks).
snapshot() {
  python3 - "$POSTMASTER" "${SERVER_PIDS[*]}" "${SERVER_PORTS[*]}" <<'EOF'
import os, sys, time, urllib.request
post = int(sys.argv[1])
servers = [int(p) for p in sys.argv[2].split()]
ports = sys.argv[3].split()
def stat(path):
    try:
        with open(path) as f:
            s = f.read()
    except OSError:
        return None
    return s[s.rindex(')') + 2:].split()
srv = wr = 0
for pid in servers:
    f = stat(f'/proc/{pid}/stat')
    if f: srv += int(f[11]) + int(f[12])
    for t in os.listdir(f'/proc/{pid}/task') if os.path.isdir(f'/proc/{pid}/task') else []:
        try:
            comm = open(f'/proc/{pid}/task/{t}/comm').read().strip()
        except OSError:
            continue
        if comm == 'tc-writer':
            g = stat(f'/proc/{pid}/task/{t}/stat')
            if g: wr += int(g[11]) + int(g[12])
pg = {}
for d in os.listdir('/proc'):
    if not d.isdigit(): continue
    f = stat(f'/proc/{d}/stat')
    if not f: continue
    pid, ppid = int(d), int(f[1])
    if pid == post:
        # Its own time and that of the backends it has reaped.
        pg[pid] = int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])
    elif ppid == post:
        pg[pid] = int(f[11]) + int(f[12])
names = ['tilecrush_moves_total', 'tilecrush_db_batches_total', 'tilecrush_db_ops_total',
         'tilecrush_db_commit_seconds_total']
sums = [0.0] * len(names)
# The window's length is the time between the two metrics readings.
now = time.monotonic()
for port in ports:
    text = urllib.request.urlopen(f'http://127.0.0.1:{port}/metrics', timeout=5).read().decode()
    for line in text.split('\n'):
        parts = line.split()
        if len(parts) == 2 and parts[0] in names:
            sums[names.index(parts[0])] += float(parts[1])
print(now, srv, wr, ' '.join(f'{k}:{v}' for k, v in sorted(pg.items())))
print(' '.join(str(x) for x in sums))
EOF
}

# Runs the load tool(s) against the running server(s): players split evenly
# over the nodes; prefix: output files. rate: moves/s per player, or "".
drive() { # prefix players seconds rate [measure]
  local n=${#SERVER_PORTS[@]} i per threads rate_args=()
  per=$(( $2 / n ))
  threads=$(( 2 / n )); [ "$threads" -ge 1 ] || threads=1
  [ -n "$4" ] && rate_args=(--move-rate "$4")
  LOAD_PIDS=()
  # tilecrush_load names its players load<i>-<seconds since the epoch>: two
  # instances started within one second would meet each other's names on a
  # shared database. So they start a second apart, in successive seconds,
  # the earlier ones running longer, so that their measured windows end
  # together and all contain the window measured here.
  [ "$n" -gt 1 ] && sleep "$(python3 -c 'import time; print(1.05 - time.time() % 1)')"
  for i in $(seq 0 $((n - 1))); do
    [ "$i" -gt 0 ] && sleep 1
    "${ON_SERVER_CPUS[@]}" "$LOAD" --port "${SERVER_PORTS[$i]}" --players "$per" --seconds $(( $3 + n - 1 - i )) \
      --threads "$threads" --server-pid "${SERVER_PIDS[$i]}" --mode "$MODE" "${rate_args[@]}" \
      > "$1.load-$i.log" 2>&1 &
    LOAD_PIDS+=($!)
  done
  if [ -n "${5:-}" ]; then
    # Every load tool measuring (it starts once each of its players has a
    # game, and half a second more, and then measures for S seconds; the
    # last one started runs S). The window here must end inside the tools'
    # own: a snapshot reads its clock only after Python has started, 0.5-1 s
    # after it is called on a busy machine, and a window that ran past the
    # tools' end counted their silence (moves/s 5-8% low, before
    # 2026-11-28). So the last snapshot is called 1.5 s before the tools
    # stop, whatever the first one took.
    local seen wait
    for i in $(seq 0 $((n - 1))); do
      for _ in $(seq 700); do
        grep -qx measuring "$1.load-$i.log" 2>/dev/null && break
        sleep 0.05
      done
    done
    seen=$(date +%s.%N)
    sleep 0.3
    cat /proc/loadavg > "$1.loadavg"
    statements_reset
    snapshot > "$1.before"
    wait=$(echo "$seen + $3 - 1.5 - $(date +%s.%N)" | bc)
    case $wait in -*) wait=0 ;; esac
    sleep "$wait"
    snapshot > "$1.after"
    statements_dump "$1.statements"
  fi
  for i in "${LOAD_PIDS[@]}"; do wait "$i" || true; done
  LOAD_PIDS=()
}

RESULTS="$OUT/results.tsv"
: > "$RESULTS"
# One measured run: a fresh configuration, a warm-up, the measured load.
run() { # phase config mode rate(total moves/s offered, "" closed) rep
  local id="$1-$2-$3-${4:-closed}-$5" prefix players per_rate=""
  prefix="$OUT/$id"
  MODE=$3
  start_config "$2" "$id"
  if [ -n "$4" ]; then
    players=$PACED_PLAYERS
    per_rate=$(echo "scale=4; $4 / $players" | bc)
  else
    players=$PLAYERS
  fi
  [ "$WARMUP" -gt 0 ] && drive "$prefix.warmup" "$players" "$WARMUP" "$per_rate"
  # Statistics as a running database has them (autovacuum analyzes a busy
  # table about once a minute, longer than a run): a fresh database's
  # sessions keep the plans they made for an empty table until the first
  # ANALYZE, which here would be after the window (storage/README.md,
  # "Plans on a young database").
  if [ -n "$RUN_DB" ] && [ "$2" != pgfresh ]; then
    psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U tilecrush -d "$RUN_DB" -v ON_ERROR_STOP=1 -c "ANALYZE" >/dev/null
  fi
  drive "$prefix" "$players" "$DUR" "$per_rate" measure
  stop_servers
  # The run's database goes with it: left behind, its hundreds of thousands
  # of dead row versions are vacuumed by autovacuum during the next runs,
  # whose PostgreSQL CPU (every process of the cluster) then counts that
  # work too (before: a later repetition took up to 1.6x the first's CPU a
  # move, and its moves/s fell by a third).
  [ -n "$RUN_DB" ] && psql_admin "DROP DATABASE $RUN_DB WITH (FORCE)"
  python3 - "$prefix" "$TCK" "$1" "$2" "$3" "${4:-closed}" "$5" >> "$RESULTS" <<'EOF'
import glob, re, sys
prefix, tck, phase, config, mode, offered, rep = sys.argv[1], float(sys.argv[2]), *sys.argv[3:]
def parse(path):
    lines = open(path).read().split('\n')
    f = lines[0].split()
    srv, wr = int(f[1]), int(f[2])
    pg = dict((int(a), int(b)) for a, b in (x.split(':') for x in f[3:]))
    moves, batches, ops, commit = (float(x) for x in lines[1].split())
    return srv, wr, pg, moves, batches, ops, commit, float(f[0])
b, a = parse(prefix + '.before'), parse(prefix + '.after')
pg_ticks = sum(v - b[2].get(k, 0) for k, v in a[2].items())
moves, batches, ops, commit = (a[i] - b[i] for i in range(3, 7))
rate = p50s = p99 = 0.0
weights, errors, mism = [], 0, 0
for f in sorted(glob.glob(prefix + '.load-*.log')):
    t = open(f).read()
    m = re.search(r'moves/s (\d+)', t); r = float(m.group(1)) if m else 0
    l = re.search(r'p50 ([\d.]+)\s+p90 [\d.]+\s+p99 ([\d.]+)', t)
    e = re.search(r'mismatches (\d+)\s+errors (\d+)', t)
    rate += r
    if l:
        p50s += float(l.group(1)) * r; p99 = max(p99, float(l.group(2)))
    if e: mism += int(e.group(1)); errors += int(e.group(2))
p50 = p50s / rate if rate else 0
window = a[7] - b[7]
load_rate, rate = rate, moves / window
us = lambda ticks: ticks / tck / moves * 1e6 if moves else float('nan')
load = open(prefix + '.loadavg').read().split()[0]
print('\t'.join(str(x) for x in [
    phase, config, mode, offered, rep, round(rate), f'{us(a[0] - b[0]):.1f}', f'{us(a[1] - b[1]):.1f}',
    f'{us(pg_ticks):.1f}', f'{p50:.2f}', f'{p99:.2f}', f'{batches:.0f}', f'{ops / batches if batches else 0:.1f}',
    f'{moves / batches if batches else 0:.1f}', f'{commit / batches * 1000 if batches else 0:.2f}',
    f'{moves:.0f}', errors, mism, load, f'{batches / window:.0f}', round(load_rate)]))
EOF
  tail -1 "$RESULTS" | awk -F'\t' '{ printf "%-6s %-8s %-6s offered %-6s rep %s: %6s moves/s  server %5s µs/move  pg %5s µs/move  p50 %6s ms  p99 %7s ms  %s moves/commit\n", $1, $2, $3, $4, $5, $6, $7, $9, $10, $11, $14 }' >&2
}

# Main matrix: every configuration, closed loop then each paced rate,
# configurations alternating within each repetition.
for rep in $(seq 1 "$REPEAT"); do
  for mode in $MODES; do
    for rate in closed $RATES; do
      [ "$rate" = closed ] && rate=""
      for config in $CONFIGS; do run main "$config" "$mode" "$rate" "$rep"; done
    done
  done
done

# The ceiling: raise the offered rate until fewer than 95 % of the offered
# moves are acknowledged, p99 passes --break-p99 ms, or the load tool kept
# no latency sample (it keeps a player's samples when the player closes,
# so players still waiting for an answer at the end lose theirs: a p99 of
# 0 means the answers took longer than the run's last half second).
mode=${MODES%% *}
for config in $RAMP_CONFIGS; do
  for rate in $RAMP; do
    run ramp "$config" "$mode" "$rate" 1
    if tail -1 "$RESULTS" | awk -F'\t' -v b="$BREAK_P99" '{ exit !($6 < 0.95 * $4 || $11 > b || $11 == 0) }'; then
      break
    fi
  done
done

python3 - "$RESULTS" "$BREAK_P99" <<'EOF'
import sys
from collections import OrderedDict
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
head = ('| config | mode | offered moves/s | moves/s | server CPU µs/move | of it writer | '
        'PostgreSQL CPU µs/move | p50 ms | p99 ms | commits/s | moves/commit | ms/commit | errors |')
sep = '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
def rng(vals, fmt):
    vals = [float(v) for v in vals]
    lo, hi = min(vals), max(vals)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else (fmt + '-' + fmt).format(lo, hi)
groups = OrderedDict()
for r in rows:
    if r[0] == 'main': groups.setdefault((r[1], r[2], r[3]), []).append(r)
if groups:
    print('\nMain runs (ranges over the repetitions; moves/s: moves the servers counted in the window; two nodes: p50 weighted by moves, p99 the worse node):\n')
    print(head); print(sep)
    for (config, mode, offered), rs in groups.items():
        print(f'| {config} | {mode} | {offered} | {rng([r[5] for r in rs], "{:,.0f}")} | {rng([r[6] for r in rs], "{:.1f}")} | '
              f'{rng([r[7] for r in rs], "{:.1f}")} | {"-" if config == "sqlite" else rng([r[8] for r in rs], "{:.1f}")} | '
              f'{rng([r[9] for r in rs], "{:.2f}")} | {rng([r[10] for r in rs], "{:.1f}")} | '
              f'{rng([r[19] for r in rs], "{:,.0f}")} | '
              f'{rng([r[13] for r in rs], "{:.1f}")} | {rng([r[14] for r in rs], "{:.2f}")} | {sum(int(r[16]) + int(r[17]) for r in rs)} |')
# The goals are ratios of the closed loop: taken within one repetition,
# whose configurations ran one after another, the machine's drift between
# repetitions (on a shared machine, a third of the moves/s) cancels.
reps = OrderedDict()
for r in rows:
    if r[0] == 'main' and r[3] == 'closed':
        reps.setdefault((r[2], r[4]), {})[r[1]] = float(r[5])
pairs = [(a, b) for a, b in (('pg', 'sqlite'), ('pg2', 'pg'))
         if any(a in v and b in v for v in reps.values())]
if pairs:
    print('\nClosed loop, within each repetition (moves/s of one configuration over another):\n')
    print('| mode | rep | ' + ' | '.join(f'{a} / {b}' for a, b in pairs) + ' |')
    print('|---|---:|' + '---:|' * len(pairs))
    for (mode, rep), v in reps.items():
        cells = [f'{v[a] / v[b]:.2f} x' if a in v and b in v and v[b] > 0 else '-' for a, b in pairs]
        print(f'| {mode} | {rep} | ' + ' | '.join(cells) + ' |')
ramp = [r for r in rows if r[0] == 'ramp']
if ramp:
    print(f'\nCeiling search (one run per step; breaks: < 95 % of offered acknowledged or p99 > {sys.argv[2]} ms):\n')
    print(head); print(sep)
    for r in ramp:
        print(f'| {r[1]} | {r[2]} | {float(r[3]):,.0f} | {float(r[5]):,.0f} | {r[6]} | {r[7]} | {r[8]} | {r[9]} | {r[10]} | '
              f'{float(r[19]):,.0f} | {r[13]} | {r[14]} | {int(r[16]) + int(r[17])} |')
print(f'\nload average at the start of each window: {", ".join(r[18] for r in rows)}')
EOF

if [ -n "$STATEMENTS" ]; then
  python3 - "$RESULTS" "$OUT" <<'EOF'
import os, sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
for r in rows:
    path = os.path.join(sys.argv[2], '-'.join(r[0:5]) + '.statements')
    if not os.path.exists(path): continue
    moves = float(r[15])
    if moves <= 0: continue
    stmts = []
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        if len(f) == 5: stmts.append((int(f[0]), float(f[1]), int(f[3]), f[4]))
    total = sum(s[1] for s in stmts)
    print(f'\nStatements of {r[1]} {r[2]} offered {r[3]} rep {r[4]} ({moves:,.0f} moves; '
          f'PostgreSQL CPU {r[8]} µs a move, of it inside statements {total * 1000 / moves:.1f} µs a move):\n')
    print('| statement | calls a move | exec µs a move | share | WAL bytes a move |')
    print('|---|---:|---:|---:|---:|')
    for calls, ms, wal, q in stmts[:12]:
        q = q.replace('|', '/')
        print(f'| `{q[:90]}{"…" if len(q) > 90 else ""}` | {calls / moves:.3f} | {ms * 1000 / moves:.2f} | '
              f'{ms / total * 100 if total else 0:.0f}% | {wal / moves:.0f} |')
    rest = stmts[12:]
    if rest:
        print(f'| ({len(rest)} more) | {sum(s[0] for s in rest) / moves:.3f} | '
              f'{sum(s[1] for s in rest) * 1000 / moves:.2f} | '
              f'{sum(s[1] for s in rest) / total * 100 if total else 0:.0f}% | {sum(s[2] for s in rest) / moves:.0f} |')
EOF
fi
echo "(reports in $OUT)"
