#!/usr/bin/env bash
# The HTTP top-20 page of the benchmark's big board against nginx serving a
# static file of the same bytes, on this machine, in one run: requests/s and
# latency of each under the same wrk load, and their ratio.
#
#   bench/leaderboard_http.sh --db PATH [--seconds S] [--connections C]
#                             [--wrk-threads T] [--server-threads N]
#                             [--build-dir DIR]
#
# --db is the file build/release/bench/leaderboard_bench filled (run that
# first; nothing else may have it open). The release tilecrush_server is
# started on it and GET /api/leaderboard?mode=same&preset=classic&seed=bench
# (the board the bench fills: the casual board, limit 20) is fetched once;
# its body, byte for byte, becomes nginx's static file. Both servers get
# --server-threads threads (tilecrush --threads, nginx worker_processes;
# default 1 each) and listen on 127.0.0.1 only, on free ports; wrk (default
# -t1 -c32 -d10s, keep-alive) runs against tilecrush, then nginx. Both are
# stopped on exit. nginx runs from a private config in a temporary
# directory (logs there too), so no root and no system nginx is needed.
# Needs nginx, wrk and curl: scripts/setup.sh --bench.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib_bench.sh

read_options 2,20 "$@" <<EOF
--db db
--seconds seconds 10
--connections connections 32
--wrk-threads wrk_threads 1
--server-threads server_threads 1
--build-dir build_dir build/release
EOF
usage() {
  sed -n '6,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[[ -n $db ]] || usage
for n in "$seconds" "$connections" "$wrk_threads" "$server_threads"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "leaderboard_http: $n is not a positive integer" >&2; exit 2; }
done
case "$db" in
  postgres://* | postgresql://*)
    echo "leaderboard_http: --db ${db%%://*}://...: the PostgreSQL backend is not built yet;" \
      "give the SQLite file leaderboard_bench filled" >&2
    exit 2 ;;
  *://*)
    echo "leaderboard_http: --db ${db%%://*}://...: unknown database URL; give a SQLite file path" >&2
    exit 2 ;;
esac
[[ -f $db ]] || { echo "leaderboard_http: no such file: $db (run leaderboard_bench first)" >&2; exit 2; }

server_bin=$build_dir/server/tilecrush_server
[[ -x $server_bin ]] || {
  echo "leaderboard_http: no $server_bin: cmake --build $build_dir --target tilecrush_server" >&2
  exit 2
}
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
for tool in "$nginx_bin" wrk curl; do
  command -v "$tool" >/dev/null || {
    echo "leaderboard_http: $tool missing: scripts/setup.sh --bench" >&2
    exit 2
  }
done

readonly path_and_query="/api/leaderboard?mode=same&preset=classic&seed=bench"

tmp=$(mktemp -d /tmp/tilecrush-lb-http-XXXXXX)
# nginx's workers (user nobody when started as root) read the file from here.
chmod 755 "$tmp"
SERVER_PID=""
nginx_pid=""
cleanup() {
  stop_pid "$SERVER_PID"
  stop_pid "$nginx_pid"
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- tilecrush ----
start_tilecrush "$server_bin" "$db" "$server_threads" "$tmp/tilecrush.log" \
  "leaderboard_http: tilecrush" 300 || exit 1
server_url="http://127.0.0.1:$SERVER_PORT$path_and_query"

mkdir -p "$tmp/www"
read -r code body_size header_size < <(curl -sS -o "$tmp/www/top20.json" \
  -w '%{http_code} %{size_download} %{size_header}\n' "$server_url")
if [[ $code != 200 ]]; then
  echo "leaderboard_http: GET $path_and_query answered $code: $(cat "$tmp/www/top20.json")" >&2
  exit 1
fi
total=$(grep -o '"total":[0-9]*' "$tmp/www/top20.json" | head -1 | cut -d: -f2 || true)
entries=$({ grep -o '"rank":' "$tmp/www/top20.json" || true; } | wc -l)
if [[ ${total:-0} == 0 ]]; then
  echo "leaderboard_http: the board is empty in $db: run leaderboard_bench --db $db first" >&2
  exit 1
fi
chmod 644 "$tmp/www/top20.json"

# ---- nginx ----
nginx_port=$(free_port)
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx.conf" <<EOF
worker_processes $server_threads;
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log $tmp/nginx-access.log combined buffer=64k flush=1s;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  default_type application/json;
  sendfile on;
  # wrk keeps its connections for the whole run, as it does with tilecrush.
  keepalive_requests 100000000;
  server {
    listen 127.0.0.1:$nginx_port;
    root $tmp/www;
  }
}
EOF
"$nginx_bin" -e "$tmp/nginx-error.log" -p "$tmp" -c "$tmp/nginx.conf" &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nginx_port/top20.json"
wait_http "$nginx_url" "$nginx_pid" "leaderboard_http: nginx" 300 || {
  cat "$tmp/nginx-error.log" >&2
  exit 1
}
read -r nginx_body nginx_header < <(curl -sS -o /dev/null -w '%{size_download} %{size_header}\n' \
  "$nginx_url")

# ---- wrk ----
# wrk prints durations with a unit (us, ms, s, m): in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.2f", n }'
}
# Runs wrk against $1 and sets rps, avg, p50, p90, p99, max, errors.
run_wrk() {
  local out
  out=$(wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" --latency "$1")
  echo "$out" >>"$tmp/wrk.log"
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  # "Latency avg stdev max": not the "Latency Distribution" heading.
  avg=$(to_ms "$(awk '$1 == "Latency" && $2 ~ /^[0-9]/ {print $2}' <<<"$out")")
  max=$(to_ms "$(awk '$1 == "Latency" && $2 ~ /^[0-9]/ {print $4}' <<<"$out")")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")
  p90=$(to_ms "$(awk '$1 == "90%" {print $2}' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  local non2xx socket
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  socket=$(awk '/Socket errors/ {for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) s += $i; print s}' \
    <<<"$out")
  errors=$((${non2xx:-0} + ${socket:-0}))
}

echo "leaderboard_http: board mode=same preset=classic seed=bench (casual), $total entries;" \
  "top-20 page: $entries entries"
echo "wrk -t$wrk_threads -c$connections -d${seconds}s --latency (keep-alive), one after the other;" \
  "tilecrush --threads $server_threads, nginx worker_processes $server_threads;" \
  "$(nproc) cores shared by wrk and the server"
echo

run_wrk "$server_url"
t_rps=$rps
printf -v t_row "%-10s %12s %9s %9s %9s %9s %9s %8s %8s %7s" tilecrush "$rps" "$avg" "$p50" \
  "$p90" "$p99" "$max" "$body_size" "$header_size" "$errors"
run_wrk "$nginx_url"
n_rps=$rps
printf -v n_row "%-10s %12s %9s %9s %9s %9s %9s %8s %8s %7s" nginx "$rps" "$avg" "$p50" \
  "$p90" "$p99" "$max" "$nginx_body" "$nginx_header" "$errors"

printf "%-10s %12s %9s %9s %9s %9s %9s %8s %8s %7s\n" server "requests/s" "avg ms" "p50 ms" \
  "p90 ms" "p99 ms" "max ms" "body B" "head B" "errors"
echo "$t_row"
echo "$n_row"
awk -v t="$t_rps" -v n="$n_rps" 'BEGIN {
  if (t > 0) printf "\nnginx / tilecrush: %.1fx the requests/s (tilecrush at %.1f%% of nginx)\n", n / t, 100 * t / n }'
# Other work on the machine skews both rows: say how busy it was.
echo "load average (1 min) at the end: $(cut -d' ' -f1 /proc/loadavg)"
