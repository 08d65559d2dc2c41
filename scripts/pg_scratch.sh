#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster on 127.0.0.1, for tests and benchmarks.
#
#   scripts/pg_scratch.sh start DIR   creates DIR, starts a cluster there on a
#                                     free port and prints its URL (also kept
#                                     in DIR/url); database "tilecrush"
#   scripts/pg_scratch.sh stop DIR    stops it and removes DIR
#   scripts/pg_scratch.sh restart DIR restarts it (fast shutdown: every
#                                     session is cut off) on the same port
#
# PG_SCRATCH_SETTINGS, if set, adds server settings to the start (each
# word one "-c name=value"), e.g. PG_SCRATCH_SETTINGS=shared_preload_libraries=pg_stat_statements
# for bench/pg_compare.sh --statements.
#
# PostgreSQL refuses to run as root, so when this runs as root the cluster
# belongs to the unprivileged `postgres` user (created by Debian's package)
# and is started with runuser. Authentication is `trust` on loopback only:
# the cluster is private to one test run and listens on 127.0.0.1 alone.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin
[[ -x $bin/initdb ]] || { echo "pg_scratch: postgresql-15 is not installed (scripts/setup.sh --test)" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd=${1:-}
dir=${2:-}
[[ -n $cmd && -n $dir ]] || { echo "usage: scripts/pg_scratch.sh start|stop|restart DIR" >&2; exit 2; }

case $cmd in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U tilecrush -A trust -E UTF8 --no-instructions >/dev/null
    settings=""
    for setting in ${PG_SCRATCH_SETTINGS:-}; do settings+=" -c $setting"; done
    # A free port: ask the kernel for one, retry if someone takes it first.
    for _ in 1 2 3 4 5; do
      port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
             echo $((20000 + RANDOM % 20000)))
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
           -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200$settings" start >/dev/null; then
        as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U tilecrush tilecrush
        url="postgresql://tilecrush@127.0.0.1:$port/tilecrush"
        echo "$url" >"$dir/url"
        echo "$url"
        exit 0
      fi
    done
    echo "pg_scratch: PostgreSQL did not start; see $dir/log" >&2
    exit 1
    ;;
  restart)
    # pg_ctl restart starts it again with the options it was started with.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -m fast -w -t 60 restart >/dev/null
    ;;
  stop)
    [[ -d $dir/data ]] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: scripts/pg_scratch.sh start|stop|restart DIR" >&2; exit 2 ;;
esac
