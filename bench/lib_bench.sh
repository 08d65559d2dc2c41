# shellcheck shell=bash
# Pieces the bench scripts share (sourced, never run): reading the options,
# a free port, starting the server on a database, a quiet stop of a
# process, and waiting for a server to answer or to say its port. Each
# function but read_options (which exits on a bad command line) reports on
# stderr and returns non-zero; the caller decides whether that ends the run.

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

# Reads a script's options, "--key value" pairs, as its table (on stdin, one
# option a line) says: "--key VAR default" sets VAR to the default now and
# to the key's value when given (the rest of the line is the default, maybe
# empty); "--key name()" calls function `name` for a key that takes no
# value. -h or --help prints lines `help` of the script (sed's "2,19") and
# exits 0; "--" ends the options, the rest go into OPTION_REST; an unknown
# key, or one without its value, exits 2.
# shellcheck disable=SC2034  # OPTION_REST is the caller's
read_options() { # help args... <table
  local help=$1 key target default
  local -A targets=()
  shift
  while read -r key target default; do
    [ -n "$key" ] || continue
    targets[$key]=$target
    [[ $target == *"()" ]] || printf -v "$target" '%s' "$default"
  done
  OPTION_REST=()
  while [ $# -gt 0 ]; do
    case "$1" in
      -h | --help) sed -n "${help}p" "$0"; exit 0 ;;
      --) shift; OPTION_REST=("$@"); return 0 ;;
    esac
    target=${targets[$1]:-}
    if [ -z "$target" ]; then
      echo "${0##*/}: unknown option $1 (--help lists them)" >&2
      exit 2
    elif [[ $target == *"()" ]]; then
      "${target%"()"}"
      shift
    elif [ $# -lt 2 ]; then
      echo "${0##*/}: $1 wants a value" >&2
      exit 2
    else
      printf -v "$target" '%s' "$2"
      shift 2
    fi
  done
}

# Starts the tilecrush_server `bin` on database `db` at a free port of
# 127.0.0.1 (serving web-client, `threads` threads, warnings only, its log
# in `log`) and waits up to `tries` tenths of a second until /api/health
# answers. Sets SERVER_PID as soon as it runs (for the caller's clean-up)
# and SERVER_PORT; on failure the log goes to stderr. `name` names the
# server in the complaint.
start_tilecrush() { # bin db threads log name tries
  SERVER_PORT=$(free_port)
  "$1" --bind 127.0.0.1 --port "$SERVER_PORT" --db "$2" --static web-client \
    --threads "$3" --log-level warn >"$4" 2>&1 &
  SERVER_PID=$!
  wait_http "http://127.0.0.1:$SERVER_PORT/api/health" "$SERVER_PID" "$5" "$6" || {
    cat "$4" >&2
    return 1
  }
}
