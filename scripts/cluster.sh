#!/usr/bin/env bash
# A throw-away tilecrush cluster on 127.0.0.1, from Debian packages and
# without containers: one PostgreSQL (scripts/pg_scratch.sh), N server
# nodes on that database, and nginx in front with the routing of
# docker/nginx-cluster.conf (docker/README.md, "Several nodes").
#
#   scripts/cluster.sh start DIR [--nodes N] [--port P] [--binary PATH] [-- SERVER_ARGS...]
#       N nodes n1..nN (default 2); P the nginx port (default: a free one);
#       PATH the server (default build/release/server/tilecrush_server);
#       SERVER_ARGS go to every node. Returns once every node answers
#       /api/health, and prints the nginx URL and the nodes' ports. DIR
#       holds the logs (nN.log, nginx-*.log), nginx.conf, the database
#       (DIR/pg) and cluster.env (NGINX_PORT, PG_URL, NODES, NODE_nK_PORT,
#       NODE_nK_PID), which tests source.
#   scripts/cluster.sh stop DIR            stops everything and removes DIR
#   scripts/cluster.sh kill-node DIR nK    SIGKILL one node (a crash)
#   scripts/cluster.sh restart-node DIR nK stops nK if it runs (SIGTERM) and
#                                          starts it again on its port
#   scripts/cluster.sh restart-pg DIR      restarts PostgreSQL (pg_ctl restart
#                                          -m fast: every session is cut off);
#                                          the nodes keep running
#
# Exit status 3: nginx or PostgreSQL 15 is not installed (tests skip then).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pg_bin=/usr/lib/postgresql/15/bin

usage() {
  echo "usage: scripts/cluster.sh start DIR [--nodes N] [--port P] [--binary PATH] [-- SERVER_ARGS...]" >&2
  echo "       scripts/cluster.sh stop|kill-node|restart-node|restart-pg DIR [NODE]" >&2
  exit 2
}

die() {
  echo "cluster: $*" >&2
  exit 1
}

# Debian puts nginx in /usr/sbin, which an unprivileged user's PATH lacks.
find_nginx() {
  command -v nginx 2>/dev/null || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; } || true
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
    echo $((20000 + RANDOM % 20000))
}

# The listening port that `start` wrote down for node $1.
node_port() { local v="NODE_$1_PORT"; echo "${!v:-}"; }
node_pid() { local v="NODE_$1_PID"; echo "${!v:-}"; }

# A zombie is dead: a node's parent is gone (setsid), so its zombie waits for
# PID 1 to reap it, which some inits do only every second or so; kill-node
# waited that long, and the failover test timed every reconnect from it.
alive() {
  [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null || return 1
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

# cluster.env is rewritten whole, so it is always a complete, sourceable file.
write_env() {
  local tmp="$dir/cluster.env.tmp"
  {
    echo "# written by scripts/cluster.sh; sourceable by sh and bash"
    echo "NGINX_PORT=$NGINX_PORT"
    echo "NGINX_URL=http://127.0.0.1:$NGINX_PORT"
    echo "PG_URL=$PG_URL"
    echo "NODES=\"$NODES\""
    echo "BINARY=$(printf '%q' "$BINARY")"
    echo "SERVER_ARGS=$(printf '%q' "$SERVER_ARGS")"
    local n
    for n in $NODES; do
      echo "NODE_${n}_PORT=$(node_port "$n")"
      echo "NODE_${n}_PID=$(node_pid "$n")"
    done
  } >"$tmp"
  mv "$tmp" "$dir/cluster.env"
}

load_env() {
  [[ -f $dir/cluster.env ]] || die "no cluster in $dir (no cluster.env)"
  # shellcheck disable=SC1091
  source "$dir/cluster.env"
}

healthy() {
  curl -fsS --max-time 2 "http://127.0.0.1:$1/api/health" 2>/dev/null | grep -q '"status":"ok"'
}

# Starts node $1 on its port, in its own session so that a Ctrl-C meant for
# the caller (or a test runner's process group) does not take it down.
start_node() {
  local n=$1 port
  port=$(node_port "$n")
  local args=()
  [[ -n $SERVER_ARGS ]] && read -ra args <<<"$SERVER_ARGS"
  # Behind nginx every client has nginx's address: the per-address cap
  # would otherwise count all players of the cluster as one client.
  setsid "$BINARY" --bind 127.0.0.1 --port "$port" --db "$PG_URL" --node-id "$n" \
    --static "$root/web-client" --max-connections-per-address 10000 "${args[@]}" \
    </dev/null >>"$dir/$n.log" 2>&1 &
  printf -v "NODE_${n}_PID" '%s' "$!"
  write_env
}

wait_healthy() {
  local n=$1 port pid
  port=$(node_port "$n")
  pid=$(node_pid "$n")
  for _ in $(seq 1 300); do
    healthy "$port" && return 0
    alive "$pid" || { tail -n 20 "$dir/$n.log" >&2; die "node $n exited; see $dir/$n.log"; }
    sleep 0.1
  done
  die "node $n does not answer /api/health on port $port; see $dir/$n.log"
}

# SIGTERM (a clean stop: queued writes committed), SIGKILL after 30 s.
stop_pid() {
  local pid=$1
  alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do
    alive "$pid" || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

write_nginx_conf() {
  local nginx_user="" n direct=""
  # Run as root, nginx's workers would drop to `nobody`, who cannot write
  # the temp paths in DIR; keep them as the calling user instead.
  [[ $(id -u) -eq 0 ]] && nginx_user="user $(id -un) $(id -gn);"
  # Why max_fails=0 for the WebSocket upstream and a short fail_timeout for
  # the HTTP one: docker/nginx-cluster.conf, "Failover".
  local ws_servers="" http_servers=""
  for n in $NODES; do
    ws_servers+="    server 127.0.0.1:$(node_port "$n") max_fails=0;"$'\n'
    http_servers+="    server 127.0.0.1:$(node_port "$n") max_fails=1 fail_timeout=2s;"$'\n'
    direct+="    $n 127.0.0.1:$(node_port "$n");"$'\n'
  done
  mkdir -p "$dir/nginx-tmp"
  # WebSocket upgrade headers; read timeouts longer than the server's idle
  # timeout, which pings and closes quiet connections itself.
  local ws_proxy="      proxy_http_version 1.1;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_connect_timeout 1s;
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 0;
      proxy_next_upstream_timeout 5s;"
  cat >"$dir/nginx.conf" <<EOF
# Generated by scripts/cluster.sh; the same routing as docker/nginx-cluster.conf.
$nginx_user
worker_processes 1;
# Each WebSocket holds two of the worker's connections (the player's and
# the node's): 1024 refused every player past about 500 ("worker_connections
# are not enough"), well inside the issue's load of 1,000 players.
worker_rlimit_nofile 20000;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections 8192; }

http {
  # Which node served each request (\$upstream_addr), to follow the routing.
  log_format tc '\$remote_addr [\$time_local] "\$request" \$status -> \$upstream_addr';
  access_log $dir/nginx-access.log tc;
  client_body_temp_path $dir/nginx-tmp/body;
  proxy_temp_path $dir/nginx-tmp/proxy;
  fastcgi_temp_path $dir/nginx-tmp/fastcgi;
  uwsgi_temp_path $dir/nginx-tmp/uwsgi;
  scgi_temp_path $dir/nginx-tmp/scgi;

  map \$http_upgrade \$connection_upgrade {
    default upgrade;
    ""      close;
  }
  # /ws?room=CODE: every member of a room hashes to the same node; a
  # connection without a room gets a random key and spreads out.
  map \$arg_room \$tc_route {
    ""      \$request_id;
    default \$arg_room;
  }
  # /ws?node=ID: straight to that node (the node a "moved" error names).
  map \$arg_node \$tc_backend {
$direct    default tilecrush_rooms;
  }

  upstream tilecrush_rooms {
    hash \$tc_route consistent;
$ws_servers  }
  upstream tilecrush_any {
$http_servers    keepalive 16;
    keepalive_timeout 10s;
  }

  server {
    listen 127.0.0.1:$NGINX_PORT;

    location = /ws {
      proxy_pass http://\$tc_backend;
$ws_proxy
      # ?node=ID of a node that is down: fall back to the room's hash (the
      # room's new owner, or a node that answers "moved" to it).
      error_page 502 504 = @ws_rooms;
    }
    location @ws_rooms {
      proxy_pass http://tilecrush_rooms;
$ws_proxy
    }

    location / {
      proxy_pass http://tilecrush_any;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries 3;
    }
  }
}
EOF
}

cmd_start() {
  local nodes=2 nginx_port="" binary="$root/build/release/server/tilecrush_server"
  SERVER_ARGS=""
  while (($#)); do
    case $1 in
      --nodes) nodes=${2:?--nodes needs a number}; shift 2 ;;
      --port) nginx_port=${2:?--port needs a port}; shift 2 ;;
      --binary) binary=${2:?--binary needs a path}; shift 2 ;;
      --) shift; SERVER_ARGS="$*"; break ;;
      *) usage ;;
    esac
  done
  [[ $nodes =~ ^[1-9][0-9]?$ ]] || die "--nodes must be 1 to 99"
  local nginx
  nginx=$(find_nginx)
  if [[ -z $nginx || ! -x $pg_bin/initdb ]]; then
    echo "cluster: needs nginx and postgresql-15 (apt-get install nginx postgresql-15)" >&2
    exit 3
  fi
  [[ -x $binary ]] || die "no server binary at $binary (cmake --preset release && cmake --build build/release --target tilecrush_server)"
  [[ -e $dir/cluster.env ]] && die "$dir already holds a cluster (scripts/cluster.sh stop $dir)"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # As root, PostgreSQL runs as `postgres` (pg_scratch.sh), which must be
  # able to reach DIR/pg through DIR (mktemp -d makes it 0700).
  [[ $(id -u) -eq 0 ]] && chmod a+x "$dir"
  BINARY=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

  # However start ends before the cluster is up (a failed step, die, a
  # signal), what it started is taken down; DIR keeps the logs for a look.
  started=0
  trap 'on_start_exit' EXIT
  PG_URL=$(scripts_pg start "$dir/pg")
  NGINX_PORT=${nginx_port:-$(free_port)}
  NODES=""
  local i
  for i in $(seq 1 "$nodes"); do
    NODES+="${NODES:+ }n$i"
    printf -v "NODE_n${i}_PORT" '%s' "$(free_port)"
  done
  write_env
  # Node 1 first and alone: it creates the schema, which the others then find.
  start_node n1
  wait_healthy n1
  local n
  for n in $NODES; do [[ $n == n1 ]] || start_node "$n"; done
  for n in $NODES; do wait_healthy "$n"; done

  write_nginx_conf
  "$nginx" -t -q -p "$dir" -e "$dir/nginx-error.log" -c "$dir/nginx.conf" ||
    die "nginx refused $dir/nginx.conf"
  "$nginx" -p "$dir" -e "$dir/nginx-error.log" -c "$dir/nginx.conf" </dev/null >>"$dir/nginx-out.log" 2>&1
  for _ in $(seq 1 100); do
    healthy "$NGINX_PORT" && break
    sleep 0.1
  done
  healthy "$NGINX_PORT" || die "nginx does not answer on port $NGINX_PORT; see $dir/nginx-error.log"
  started=1

  echo "nginx: http://127.0.0.1:$NGINX_PORT/"
  for n in $NODES; do echo "node $n: http://127.0.0.1:$(node_port "$n")/ (pid $(node_pid "$n"), log $dir/$n.log)"; done
  echo "PostgreSQL: $PG_URL"
  echo "settings: $dir/cluster.env; stop with scripts/cluster.sh stop $dir"
}

scripts_pg() { "$root/scripts/pg_scratch.sh" "$@"; }

# nginx and every node are told at once (a node drains in about 2 s), then
# waited for.
stop_all() {
  local n pid pids=()
  [[ -f $dir/nginx.pid ]] && pids+=("$(cat "$dir/nginx.pid" 2>/dev/null || true)")
  for n in ${NODES:-}; do pids+=("$(node_pid "$n")"); done
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do stop_pid "$pid"; done
  scripts_pg stop "$dir/pg"
}

on_start_exit() {
  ((started)) && return 0
  echo "cluster: start failed; logs are in $dir" >&2
  stop_all
}

cmd_stop() {
  [[ -d $dir ]] || return 0
  if [[ -f $dir/cluster.env ]]; then
    load_env
    stop_all
  elif [[ -d $dir/pg ]]; then
    scripts_pg stop "$dir/pg"
  fi
  rm -rf "$dir"
}

cmd_kill_node() {
  local n=$1 pid
  load_env
  [[ -n $(node_port "$n") ]] || die "no node $n (nodes: $NODES)"
  pid=$(node_pid "$n")
  alive "$pid" || return 0
  kill -KILL "$pid"
  while alive "$pid"; do sleep 0.05; done
}

cmd_restart_node() {
  local n=$1
  load_env
  [[ -n $(node_port "$n") ]] || die "no node $n (nodes: $NODES)"
  stop_pid "$(node_pid "$n")"
  # The same port, so that nginx's configuration still names it.
  start_node "$n"
  wait_healthy "$n"
  echo "node $n: http://127.0.0.1:$(node_port "$n")/ (pid $(node_pid "$n"))"
}

cmd=${1:-}
dir=${2:-}
[[ -n $cmd && -n $dir ]] || usage
shift 2
case $cmd in
  start) cmd_start "$@" ;;
  stop) cmd_stop ;;
  kill-node) cmd_kill_node "${1:?kill-node DIR NODE}" ;;
  restart-node) cmd_restart_node "${1:?restart-node DIR NODE}" ;;
  restart-pg) load_env; scripts_pg restart "$dir/pg" ;;
  *) usage ;;
esac
