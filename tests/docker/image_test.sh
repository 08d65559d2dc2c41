#!/usr/bin/env bash
# The image, built and run here as an operator would (docker/README.md,
# "Tested with podman"), with podman on a store of its own:
#  1. scripts/image.sh --prebuilt BUILD_DIR: the runtime stage from that
#     release build (the base images made with debootstrap where they cannot
#     be pulled, and cached);
#  2. its size over debian:bookworm-slim (at most 40 MB) and its contents:
#     no compiler, headers or package lists;
#  3. one container on a named volume, port published: healthy by the
#     image's own HEALTHCHECK, running as uid 10001, a player plays a ranked
#     game over the WebSocket through the published port, /metrics passes
#     `promtool check metrics`; stopped with SIGTERM (exit 0), replaced by a
#     new container on the same volume, where the game resumes at its
#     state_hash and goes on;
#  4. docker/compose.yml under podman-compose: healthy, a game played;
#  5. docker/compose.cluster.yml under podman-compose: PostgreSQL, two nodes
#     and nginx (stand-ins built from Debian's packages under the official
#     images' names where those cannot be pulled: tests/docker/standins/); a
#     game played on node n1 through nginx, n1 stopped with SIGTERM, the game
#     resumed at its state_hash through n2.
# Every container, volume and network it makes is removed however it ends.
# Its podman store (TILECRUSH_IMAGE_TEST_STORE, default
# /var/tmp/tilecrush-image-test) keeps the base image, the stand-ins and
# the last image built, whose layers (the runtime packages) are the next
# run's cache; older images are pruned. Needs root, podman, runc, netavark,
# iptables, podman-compose, debootstrap (the first time), promtool and node
# (scripts/setup.sh --test).
#   tests/docker/image_test.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."

build_dir="${1:-build/release}"
store="${TILECRUSH_IMAGE_TEST_STORE:-/var/tmp/tilecrush-image-test}"
run="tctest$$"
image="tilecrush:latest"
max_added=40000000

step_start="$EPOCHREALTIME"
test_start="$EPOCHREALTIME"
step() {
  awk -v a="$step_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "    (%.1f s)\n", b - a }'
  step_start="$EPOCHREALTIME"
  echo "--- $*"
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[[ "$(id -u)" -eq 0 ]] || fail "needs root (rootful podman, as docker/README.md runs it)"
for tool in podman podman-compose promtool node curl; do
  command -v "$tool" >/dev/null || fail "$tool missing (scripts/setup.sh --test installs it)"
done

# podman on a store of its own, with the settings that work on these
# machines (docker/README.md), for every podman call below and those of
# scripts/image.sh and podman-compose. One run at a time per store.
mkdir -p "$store"
exec 9>"$store/lock"
flock 9
tmp="$(mktemp -d "${TMPDIR:-/tmp}/tilecrush-image-test.XXXXXX")"
cat >"$tmp/storage.conf" <<EOF
[storage]
driver = "vfs"
graphroot = "$store/storage"
runroot = "/run/tilecrush-image-test/$(echo "$store" | sha256sum | cut -c1-12)"
EOF
cat >"$tmp/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
[network]
network_backend = "netavark"
EOF
export CONTAINERS_STORAGE_CONF="$tmp/storage.conf" CONTAINERS_CONF="$tmp/containers.conf"
export TILECRUSH_ENGINE=podman TILECRUSH_PODMAN=podman

# The volumes there before: the nodes' anonymous /data volumes (the image's
# VOLUME) carry no name of this run, so the cleanup removes every volume
# that was not there (the store is this run's alone, under the lock).
volumes_before="$(podman volume ls -q)"
cleanup() {
  local rc=$?
  set +e
  if ((rc)); then
    for c in $(podman ps -a --format '{{.Names}}' | grep "^$run"); do
      echo "== podman logs $c (last 30 lines)" >&2
      podman logs --tail 30 "$c" >&2 2>&1
    done
  fi
  podman ps -a --format '{{.Names}}' | grep "^$run" | xargs -r podman rm -f -v -t 0 >/dev/null 2>&1
  podman volume ls -q | grep -vxF -e "${volumes_before:-}" | xargs -r podman volume rm -f >/dev/null 2>&1
  podman network ls --format '{{.Name}}' | grep "^$run" | xargs -r podman network rm -f >/dev/null 2>&1
  podman image prune -f >/dev/null 2>&1
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT

free_port() {
  node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"
}
json_field() { node -e "console.log(JSON.parse(process.argv[1])[process.argv[2]])" "$1" "$2"; }

# Runs a container's healthcheck until it passes (at most 60 s), then
# checks that podman records it as healthy.
wait_healthy() {
  local name="$1" i
  for i in $(seq 120); do
    if podman healthcheck run "$name" >/dev/null 2>&1; then
      [[ "$(podman inspect --format '{{.State.Health.Status}}' "$name")" == healthy ]] ||
        fail "$name: the healthcheck passed but podman says $(podman inspect --format '{{.State.Health.Status}}' "$name")"
      echo "$name healthy after $((i / 2)) s"
      return
    fi
    [[ "$(podman inspect --format '{{.State.Running}}' "$name")" == true ]] ||
      fail "$name exited: $(podman logs --tail 20 "$name" 2>&1)"
    sleep 0.5
  done
  fail "$name not healthy within 60 s"
}

# Stops a container as `docker stop` does (its STOPSIGNAL, SIGTERM here) and
# expects a clean exit.
stop_cleanly() {
  local name="$1"
  podman stop -t 30 "$name" >/dev/null
  local code
  code="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
  ((code == 0)) || fail "$name exited with status $code after SIGTERM"
  podman logs "$name" 2>&1 | grep -q '^tilecrush: stopped cleanly' || fail "$name: no 'stopped cleanly' in its log"
}

ws_player="tests/docker/ws_player.mjs"

# --- 1. the image
step "scripts/image.sh --prebuilt $build_dir (podman, store $store)"
scripts/image.sh --prebuilt "$build_dir" --tag "$image"

# --- 2. size and contents
step "the image's size and contents"
size="$(podman image inspect --format '{{.Size}}' "$image")"
base_size="$(podman image inspect --format '{{.Size}}' debian:bookworm-slim)"
added=$((size - base_size))
echo "image $size bytes = base $base_size + $added (at most $max_added)"
((added <= max_added)) || fail "the image adds $added bytes to its base (at most $max_added)"
[[ "$(podman image inspect --format '{{.User}}' "$image")" == 10001:10001 ]] ||
  fail "the image's user is not 10001:10001"
root="$(podman image mount "$image")"
for f in usr/bin/gcc usr/bin/g++ usr/bin/cc usr/bin/c++ usr/bin/cmake usr/bin/make usr/include/c++ \
  usr/include/boost usr/include/sqlite3.h; do
  [[ ! -e "$root/$f" ]] || fail "the image has /$f"
done
leftovers="$(find "$root/var/lib/apt/lists" "$root/var/cache/apt" -type f ! -name lock 2>/dev/null)" || true
[[ -z "$leftovers" ]] || fail "the image keeps apt's lists or caches: $(head -n 3 <<<"$leftovers")"
[[ -x "$root/usr/local/bin/tilecrush_server" && -f "$root/usr/local/share/tilecrush/web-client/index.html" ]] ||
  fail "the image lacks the server or the web client"
podman image unmount "$image" >/dev/null

# --- 3. one container, replaced on its volume
port="$(free_port)"
volume="$run-data"
podman volume create "$volume" >/dev/null
# A network of its own: podman picks a subnet no interface uses, where the
# default network's fixed 10.88.0.0/16 may be taken by a bridge left by
# another store (CNI's cni-podman0), which makes the published port
# unreachable.
podman network create "$run-net" >/dev/null
start() {
  podman run -d --name "$1" --network "$run-net" -p "127.0.0.1:$port:8080" -v "$volume:/data" "$image" >/dev/null
}

step "a container on volume $volume, published on 127.0.0.1:$port"
start "$run-1"
wait_healthy "$run-1"
pid="$(podman inspect --format '{{.State.Pid}}' "$run-1")"
uid="$(stat -c %u "/proc/$pid")"
((uid == 10001)) || fail "the server runs as uid $uid, not 10001"
echo "the server runs as uid $uid"

step "a ranked game over the WebSocket through the published port"
played="$(node "$ws_player" play "127.0.0.1:$port" "image-player" 3)"
echo "$played"
[[ "$(json_field "$played" ranked)" == true && "$(json_field "$played" move_count)" == 3 ]] ||
  fail "not a ranked game of 3 moves: $played"

step "/metrics through the published port passes promtool check metrics"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics"
moves="$(awk '$1 == "tilecrush_moves_total" { print $2 }' "$tmp/metrics")"
[[ -n "$moves" && "$moves" != 0 ]] || fail "tilecrush_moves_total is ${moves:-missing} after the game"
if ! promtool check metrics <"$tmp/metrics" >"$tmp/promtool.log" 2>&1 || [[ -s "$tmp/promtool.log" ]]; then
  fail "promtool check metrics complains: $(cat "$tmp/promtool.log")"
fi
echo "promtool: no complaint ($(grep -vc '^#' "$tmp/metrics") samples)"

step "SIGTERM, then a new container on the same volume resumes the game"
stop_cleanly "$run-1"
podman rm "$run-1" >/dev/null
start "$run-2"
wait_healthy "$run-2"
resumed="$(node "$ws_player" resume "127.0.0.1:$port" "image-player" "$(json_field "$played" token)" \
  "$(json_field "$played" game_id)" 1)"
echo "$resumed"
[[ "$(json_field "$resumed" resumed_hash)" == "$(json_field "$played" state_hash)" ]] ||
  fail "the game resumed at another state_hash"
[[ "$(json_field "$resumed" resumed_move_count)" == 3 && "$(json_field "$resumed" move_count)" == 4 ]] ||
  fail "the resumed game did not go on from move 3"
stop_cleanly "$run-2"
podman rm "$run-2" >/dev/null

# --- 4. docker/compose.yml
compose() {
  local project="$1"
  shift
  podman-compose -p "$project" "$@" >>"$tmp/compose.log" 2>&1 ||
    fail "podman-compose -p $project $*: $(tail -n 20 "$tmp/compose.log")"
}
# The compose files ask for 65536 open files; where the hard limit is lower
# and cannot be raised (these machines: 20000), a file of the test's lowers it.
single=(-f docker/compose.yml)
cluster=(-f docker/compose.cluster.yml)
if (($(ulimit -Hn) < 65536)); then
  single+=(-f tests/docker/compose.ulimits.yml)
  cluster+=(-f tests/docker/compose.cluster.ulimits.yml)
  echo "open files limited to $(ulimit -Hn) here: the servers get 20000 (tests/docker/compose*.ulimits.yml)"
fi

step "docker/compose.yml under podman-compose"
project="${run}single"
port="$(free_port)"
TILECRUSH_PUBLISH="127.0.0.1:$port" compose "$project" "${single[@]}" up -d --no-build
wait_healthy "${project}_server_1"
played="$(node "$ws_player" play "127.0.0.1:$port" "compose-player" 2)"
[[ "$(json_field "$played" move_count)" == 2 ]] || fail "no game through compose.yml's port: $played"
echo "$played"
stop_cleanly "${project}_server_1"
compose "$project" "${single[@]}" down -v -t 30

# --- 5. docker/compose.cluster.yml, with stand-ins where the images cannot be pulled
# Builds a stand-in unless the official image is there or pulled; a stand-in
# is rebuilt when its files change (the label holds their hash).
standin() {
  local name="$1" file="tests/docker/standins/$2.Dockerfile" hash
  hash="$(cat tests/docker/standins/"$2"* | sha256sum | cut -c1-16)"
  if podman image exists "$name"; then
    local label
    label="$(podman image inspect --format '{{index .Labels "tilecrush.standin"}}' "$name")"
    if [[ -z "$label" || "$label" == "<no value>" ]]; then
      echo "$name: the official image"
      return
    fi
    if [[ "$label" == "$hash" ]]; then
      echo "$name: the stand-in, kept from an earlier run"
      return
    fi
  elif timeout 120 podman pull "docker.io/library/$name" >/dev/null 2>&1; then
    echo "$name: pulled"
    return
  fi
  podman build --pull=never --format docker --network=host --label "tilecrush.standin=$hash" \
    -f "$file" -t "$name" tests/docker/standins >"$tmp/standin-$2.log" 2>&1 ||
    fail "building the $name stand-in: $(tail -n 20 "$tmp/standin-$2.log")"
  echo "$name: built a stand-in from Debian's packages ($file)"
}
step "the cluster's images: postgres:15-bookworm and nginx:1.22"
standin postgres:15-bookworm postgres
standin nginx:1.22 nginx

# podman-compose 1.0 starts services in dependency order but does not wait
# for `condition: service_healthy`: each service is started once the one
# before is healthy, as docker compose would.
step "docker/compose.cluster.yml under podman-compose, one service after another"
project="${run}cluster"
port="$(free_port)"
export TILECRUSH_PG_PASSWORD
TILECRUSH_PG_PASSWORD="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
for service in postgres node1 node2 nginx; do
  TILECRUSH_PUBLISH="127.0.0.1:$port" compose "$project" "${cluster[@]}" up -d --no-build --no-deps "$service"
  wait_healthy "${project}_${service}_1"
done

address_of() { podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "${project}_$1_1"; }
node1_address="$(address_of node1)"
node2_address="$(address_of node2)"

step "a game on n1 through nginx; n1 stopped with SIGTERM; the game resumed through n2"
played="$(node "$ws_player" play "127.0.0.1:$port" "cluster-player" 3 "node=n1")"
echo "$played"
stop_cleanly "${project}_node1_1"
resumed="$(node "$ws_player" resume "127.0.0.1:$port" "cluster-player" "$(json_field "$played" token)" \
  "$(json_field "$played" game_id)" 1 "node=n2")"
echo "$resumed"
[[ "$(json_field "$resumed" resumed_hash)" == "$(json_field "$played" state_hash)" &&
  "$(json_field "$resumed" move_count)" == 4 ]] || fail "the game did not resume through n2 at its state_hash"
# nginx's log names the one address that answered each upgrade: n1's for
# the game, n2's (and no other) for the resume.
routes="$(podman logs "${project}_nginx_1" 2>&1 | grep '"GET /ws?node=' || true)"
if ! grep -q "\"GET /ws?node=n1 HTTP/1.1\" 101 -> $node1_address:8080 " <<<"$routes" ||
  ! grep -q "\"GET /ws?node=n2 HTTP/1.1\" 101 -> $node2_address:8080 " <<<"$routes"; then
  fail "nginx did not send ?node=n1 to node1 and ?node=n2 to node2 alone: $routes"
fi
compose "$project" "${cluster[@]}" down -v -t 30

step "done"
awk -v a="$test_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "PASS: the image, one container, compose.yml and the cluster in %.0f s\n", b - a }'
