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

no_fill() { do_fill=0; }
do_fill=1
read_options 2,17 "$@" <<EOF
--db db
--days days
--entries entries
--players players
--player player
--seconds seconds
--server-threads server_threads 2
--build-dir build_dir build/release
--no-fill no_fill()
EOF
usage() {
  sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
# What year_bench's fill and its measurement each take (their own defaults
# where not given).
fill_args=()
measure_args=()
[[ -z $days ]] || { fill_args+=(--days "$days"); measure_args+=(--days "$days"); }
[[ -z $player ]] || { fill_args+=(--player "$player"); measure_args+=(--player "$player"); }
[[ -z $entries ]] || fill_args+=(--entries "$entries")
[[ -z $players ]] || fill_args+=(--players "$players")
[[ -z $seconds ]] || measure_args+=(--seconds "$seconds")
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
SERVER_PID=""
cleanup() {
  stop_pid "$SERVER_PID"
  rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s.%N)
start_tilecrush "$server_bin" "$db" "$server_threads" "$log" "year_bench: the server" 600 || exit 1
port=$SERVER_PORT
echo "tilecrush_server --threads $server_threads on 127.0.0.1:$port: answering after" \
  "$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

status=0
"$bench_bin" --measure "127.0.0.1:$port" "${measure_args[@]}" || status=$?
rss=$(awk '/^VmHWM/ {printf "%.1f MiB", $2 / 1024}' "/proc/$SERVER_PID/status" 2>/dev/null || echo "?")
echo "server peak RSS: $rss; load average (1 min): $(cut -d' ' -f1 /proc/loadavg)"
if [[ -s $log ]]; then
  echo "server log (warnings):"
  tail -n 20 "$log"
fi
exit "$status"
