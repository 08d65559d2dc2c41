#!/usr/bin/env bash
# Checks that the server's /metrics passes `promtool check metrics` (the
# Prometheus text format and its naming lint): starts the built server on
# 127.0.0.1 and a free port with a fresh database, plays a few seconds of
# every mode with the load tool and makes some HTTP requests so that the
# counters and the latency histogram have values, then pipes /metrics into
# promtool. Any complaint fails the check.
#   scripts/check_metrics.sh [BUILD_DIR]   (default build/release; needs its
#                                           tilecrush_server and tilecrush_load)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build/release}"
server_bin="$build/server/tilecrush_server"
load_bin="$build/bench/tilecrush_load"
for f in "$server_bin" "$load_bin"; do
  [[ -x "$f" ]] || { echo "check_metrics: $f is not built" >&2; exit 1; }
done
command -v promtool >/dev/null || { echo "check_metrics: promtool missing (scripts/setup.sh --test installs it)" >&2; exit 1; }

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# The log exists before the server starts writing it: the loop below may
# read it before the background shell has opened it.
: >"$tmp/server.log"
"$server_bin" --bind 127.0.0.1 --port 0 --db "$tmp/tilecrush.db" --static web-client \
  --threads 2 --log-level warn >"$tmp/server.log" 2>&1 &
server_pid=$!

port=""
for _ in $(seq 100); do
  port="$(sed -n 's|^tilecrush listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$tmp/server.log")"
  [[ -n "$port" ]] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "check_metrics: the server did not start:" >&2
  cat "$tmp/server.log" >&2
  exit 1
fi
base="http://127.0.0.1:$port"

# HTTP: static files, API answers and a 404.
for path in / /api/health /api/daily /api/no-such-path; do
  curl -s -o /dev/null "$base$path"
done
# WebSocket: games of every mode, moves, finished games, database writes.
"$load_bin" --port "$port" --players 3 --seconds 2 --mode mix --move-rate 20 \
  --db "$tmp/tilecrush.db" >"$tmp/load.log" 2>&1 || {
  echo "check_metrics: the load tool failed:" >&2
  cat "$tmp/load.log" >&2
  exit 1
}

curl -sf "$base/metrics" >"$tmp/metrics"

# The traffic above must show, or the check would lint empty series only.
for name in tilecrush_moves_total tilecrush_games_created_total tilecrush_http_requests_total \
            tilecrush_reply_latency_seconds_count tilecrush_db_ops_total; do
  value="$(awk -v n="$name" '$1 == n {print $2}' "$tmp/metrics")"
  if [[ -z "$value" || "$value" == 0 ]]; then
    echo "check_metrics: $name is ${value:-missing} after the traffic" >&2
    exit 1
  fi
done

status=0
promtool check metrics <"$tmp/metrics" >"$tmp/promtool.log" 2>&1 || status=$?
if ((status != 0)) || [[ -s "$tmp/promtool.log" ]]; then
  echo "check_metrics: promtool check metrics complains (exit $status):" >&2
  cat "$tmp/promtool.log" >&2
  exit 1
fi
echo "check_metrics: /metrics passes promtool check metrics ($(grep -vc '^#' "$tmp/metrics") samples)"
