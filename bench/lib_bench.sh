# shellcheck shell=bash
# Pieces the bench scripts share (sourced, never run): a free port, a quiet
# stop of a process, and waiting for a server to answer or to say its port.
# Each function reports on stderr and returns non-zero; the caller decides
# whether that ends the run.

# A port nobody listens on now (checked, not reserved: the start fails loudly
# in the rare case another process takes it first).
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    ss -Hltn "sport = :$port" | grep -q . || { echo "$port"; return; }
  done
}

# Stops process `pid` (if any) and reaps it, whatever state it is in.
stop_pid() { # pid
  [ -n "${1:-}" ] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# Waits until `url` answers 200, for `tries` tenths of a second, while
# process `pid` lives; `name` names it in the complaint.
wait_http() { # url pid name tries
  local url=$1 pid=$2 name=$3 tries=$4
  for _ in $(seq 1 "$tries"); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { echo "$name exited" >&2; return 1; }
    sleep 0.1
  done
  echo "$name did not answer $url" >&2
  return 1
}

# The port a server started with --port 0 prints in `log` after `prefix`
# (e.g. "http://127.0.0.1:"), waiting `tries` twentieths of a second; on
# failure the log goes to stderr.
port_from_log() { # log prefix tries
  local port=""
  for _ in $(seq 1 "$3"); do
    port=$(grep -o "$2[0-9]*" "$1" 2>/dev/null | head -1 | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && { echo "$port"; return 0; }
    sleep 0.05
  done
  echo "server did not start:" >&2
  cat "$1" >&2
  return 1
}
