#!/usr/bin/env bash
# "Fast at a year of data": fills (or reuses) a database with a year of
# dailies, starts the release tilecrush_server on it (127.0.0.1, a free
# port), measures the pages a returning player opens over HTTP, one
# request at a time, and stops the server.
#
#   bench/year_bench.sh --db PATH|postgresql://URL [--days N] [--entries M]
#                       [--players P] [--player NAME] [--seconds S]
#                       [--server-threads T] [--build-dir DIR] [--no-fill]
#
# --days, --entries, --players and --player go to `year_bench --db` (the
# fill: defaults 365, 1000, 5000, bench-daily; a database already filled to
# that size is reused); --seconds (default 3) to `year_bench --measure`.
# --no-fill measures the database as it is. The server gets --threads T
# (default 2) and its log goes to a temporary file, shown if it fails.
# Needs curl; build first:
#   cmake --build build/release --target year_bench tilecrush_server
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib_bench.sh

db=""
fill_args=()
measure_args=()
server_threads=2
build_dir=build/release
do_fill=1

usage() {
  sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case "$1" in
    --no-fill) do_fill=0; shift; continue ;;
  esac
  [[ $# -ge 2 ]] || usage
  case "$1" in
    --db) db=$2 ;;
    --days) fill_args+=(--days "$2"); measure_args+=(--days "$2") ;;
    --player) fill_args+=(--player "$2"); measure_args+=(--player "$2") ;;
    --entries | --players) fill_args+=("$1" "$2") ;;
    --seconds) measure_args+=(--seconds "$2") ;;
    --server-threads) server_threads=$2 ;;
    --build-dir) build_dir=$2 ;;
    *) usage ;;
  esac
  shift 2
done
[[ -n $db ]] || usage

bench_bin=$build_dir/bench/year_bench
server_bin=$build_dir/server/tilecrush_server
for bin in "$bench_bin" "$server_bin"; do
  [[ -x $bin ]] || {
    echo "year_bench: no $bin: cmake --build $build_dir --target year_bench tilecrush_server" >&2
    exit 2
  }
done
command -v curl >/dev/null || { echo "year_bench: curl missing" >&2; exit 2; }

if ((do_fill)); then
  "$bench_bin" --db "$db" "${fill_args[@]}"
  echo
fi

log=$(mktemp /tmp/tilecrush-year-bench-XXXXXX.log)
server_pid=""
cleanup() {
  stop_pid "$server_pid"
  rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(free_port)
started=$(date +%s.%N)
"$server_bin" --bind 127.0.0.1 --port "$port" --db "$db" --static web-client \
  --threads "$server_threads" --log-level warn >"$log" 2>&1 &
server_pid=$!
wait_http "http://127.0.0.1:$port/api/health" "$server_pid" "year_bench: the server" 600 || {
  cat "$log" >&2
  exit 1
}
echo "tilecrush_server --threads $server_threads on 127.0.0.1:$port: answering after" \
  "$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

status=0
"$bench_bin" --measure "127.0.0.1:$port" "${measure_args[@]}" || status=$?
rss=$(awk '/^VmHWM/ {printf "%.1f MiB", $2 / 1024}' "/proc/$server_pid/status" 2>/dev/null || echo "?")
echo "server peak RSS: $rss; load average (1 min): $(cut -d' ' -f1 /proc/loadavg)"
if [[ -s $log ]]; then
  echo "server log (warnings):"
  tail -n 20 "$log"
fi
exit "$status"
