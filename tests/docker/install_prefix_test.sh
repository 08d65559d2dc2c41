#!/usr/bin/env bash
# Performs the Docker image's steps without a Docker engine:
#  1. the build stage's scripts/install.sh, staged with DESTDIR under /usr/local;
#  2. the runtime stage's contents: only the binary and the web client, and a
#     package list (docker/runtime-packages.txt) equal to what the binary
#     links (ldd, then dpkg -S for each library);
#  3. the container's life: the server started from the prefix with the
#     image's settings and its database in a "volume" directory (as uid 10001
#     when run as root, like the image's user), the image's HEALTHCHECK script,
#     a player written over the WebSocket, SIGTERM, a clean exit, a database
#     folded out of its WAL, and a second start that still finds the player.
# Environment:
#   TILECRUSH_SOURCE_DIR  repository (default: two folders up from here)
#   TILECRUSH_BUILD_DIR   an existing build to install from (quick; CTest sets
#                         it); unset: a release build from scratch in a
#                         temporary directory, as the image's build stage does
set -euo pipefail
export LC_ALL=C

source_dir="${TILECRUSH_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
build_dir="${TILECRUSH_BUILD_DIR:-}"
image_uid=10001
player="docker-volume-check"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tilecrush-docker-test.XXXXXX")"
chmod 755 "$tmp"
server_pid=""
server_log=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

step() { echo "--- $*"; }
fail() {
  echo "FAIL: $*" >&2
  if [[ -n "$server_log" && -s "$server_log" ]]; then
    echo "server output:" >&2
    sed 's/^/  | /' "$server_log" >&2
  fi
  exit 1
}

# --- 1. build stage: RUN DESTDIR=/staging scripts/install.sh /tmp/build /usr/local
dockerfile="$source_dir/docker/Dockerfile"
packages_file="$source_dir/docker/runtime-packages.txt"
healthcheck="$source_dir/docker/healthcheck.sh"
step "Dockerfile uses the scripts, the package list and the layout this test checks"
for needle in \
  "FROM debian:bookworm AS build" \
  "RUN scripts/setup.sh" \
  "RUN DESTDIR=/staging scripts/install.sh /tmp/build /usr/local" \
  "FROM debian:bookworm-slim AS runtime" \
  "COPY docker/runtime-packages.txt" \
  "COPY --from=build /staging/usr/local/ /usr/local/" \
  "docker/healthcheck.sh /usr/local/bin/tilecrush-healthcheck" \
  "TILECRUSH_DB=/data/tilecrush.db" \
  "TILECRUSH_STATIC=/usr/local/share/tilecrush/web-client" \
  "VOLUME /data" \
  "--uid $image_uid" \
  "USER $image_uid:$image_uid" \
  "STOPSIGNAL SIGTERM" \
  'CMD ["/usr/local/bin/tilecrush-healthcheck"]'; do
  grep -qF -- "$needle" "$dockerfile" || fail "docker/Dockerfile lacks: $needle"
done

staging="$tmp/staging"
prefix="$staging/usr/local"
if [[ -n "$build_dir" ]]; then
  step "install from the existing build $build_dir"
  DESTDIR="$staging" "$source_dir/scripts/install.sh" --reuse "$build_dir" /usr/local
else
  step "release build from scratch in $tmp/build, then install"
  DESTDIR="$staging" "$source_dir/scripts/install.sh" "$tmp/build" /usr/local
fi
binary="$prefix/bin/tilecrush_server"
static_dir="$prefix/share/tilecrush/web-client"

# --- 2. runtime stage: what COPY --from=build brings, and the libraries
step "installed files are the binaries (server, verifier) and the web client only"
[[ -x "$binary" ]] || fail "no executable $binary"
# With --reuse the build directory holds every target, so the install would
# succeed even if install.sh's own build (the image's build stage) left an
# installed program out: the programs installed must be exactly the targets
# install.sh builds.
installed_programs="$(find "$prefix/bin" -mindepth 1 -printf '%f\n' | sort)"
built_targets="$("$source_dir/scripts/install.sh" --targets | sort)"
[[ "$installed_programs" == "$built_targets" ]] ||
  fail "the install rules install ($(echo $installed_programs)) but scripts/install.sh builds ($(echo $built_targets))"
unexpected="$(find "$staging" ! -type d -printf '%P\n' |
  grep -v -e '^usr/local/bin/tilecrush_server$' -e '^usr/local/bin/tilecrush_verify$' \
    -e '^usr/local/share/tilecrush/web-client/')" || true
[[ -z "$unexpected" ]] || fail "unexpected installed files:"$'\n'"$unexpected"
diff -r "$source_dir/web-client" "$static_dir" >/dev/null ||
  fail "installed web client differs from $source_dir/web-client"
echo "installed: $(du -sh "$staging" | cut -f1) ($(du -sh "$binary" | cut -f1) binary)"

step "runtime-packages.txt is exactly the packages of the linked libraries"
command -v dpkg >/dev/null || fail "dpkg not found: this check needs Debian (the image's base)"
ldd_out="$(ldd "$binary")" || fail "ldd failed on $binary"
if grep -q 'not found' <<<"$ldd_out"; then fail "unresolved libraries:"$'\n'"$ldd_out"; fi
# A library's path as ldd prints it may differ from the one dpkg recorded
# (/lib vs /usr/lib with merged /usr, a symlink vs its target): each library
# gets those candidates, and one dpkg -S call looks them all up.
candidates_of() {
  local c
  for c in "$1" "$(readlink -f "$1")"; do
    echo "$c"
    if [[ "$c" == /usr/* ]]; then echo "${c#/usr}"; else echo "/usr$c"; fi
  done
}
mapfile -t libs < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$ldd_out")
((${#libs[@]})) || fail "ldd lists no libraries for $binary"
all_candidates=()
for lib in "${libs[@]}"; do mapfile -t -O "${#all_candidates[@]}" all_candidates < <(candidates_of "$lib"); done
declare -A owners_of=()
while IFS= read -r line; do
  [[ "$line" == "diversion by "* || "$line" != *": /"* ]] && continue
  owners_of["/${line#*: /}"]="$(tr ',' '\n' <<<"${line%%: /*}" | sed -e 's/^ *//' -e 's/:.*//' | sort -u)"
done < <(dpkg -S "${all_candidates[@]}" 2>/dev/null || true)
linked=()
for lib in "${libs[@]}"; do
  pkg=""
  while read -r c; do
    pkg="${owners_of[$c]:-}"
    [[ -n "$pkg" ]] && break
  done < <(candidates_of "$lib")
  [[ -n "$pkg" ]] || fail "no Debian package owns $lib"
  echo "  $lib -> $pkg"
  linked+=("$pkg")
done
linked_sorted="$(printf '%s\n' "${linked[@]}" | sort -u)"
# Parsed as the Dockerfile does: comments cut, whitespace-separated names.
listed_sorted="$(sed -e 's/#.*//' "$packages_file" | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)"
if [[ "$linked_sorted" != "$listed_sorted" ]]; then
  fail "docker/runtime-packages.txt (<) differs from the linked packages (>):"$'\n'"$(
    diff <(echo "$listed_sorted") <(echo "$linked_sorted") || true)"
fi
echo "runtime packages: $(echo "$listed_sorted" | tr '\n' ' ')"

# --- 3. the container's life, with a directory as the volume
volume="$tmp/volume"
db="$volume/tilecrush.db"
mkdir -p "$volume"
as_image_user=()
if [[ "$(id -u)" -eq 0 ]] && command -v setpriv >/dev/null; then
  chown "$image_uid:$image_uid" "$volume"
  as_image_user=(setpriv "--reuid=$image_uid" "--regid=$image_uid" --clear-groups --)
fi
port=""

# The image's ENV, with a loopback bind and any free port for the test.
start_server() {
  server_log="$tmp/server-$1.log"
  (cd "$volume" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin \
    TILECRUSH_BIND=127.0.0.1 TILECRUSH_PORT=0 TILECRUSH_DB="$db" TILECRUSH_STATIC="$static_dir" \
    "${as_image_user[@]}" "$binary") >"$server_log" 2>&1 &
  server_pid=$!
  local line=""
  for _ in $(seq 300); do
    line="$(grep -m1 '^tilecrush listening on http://' "$server_log" || true)"
    [[ -n "$line" ]] && break
    kill -0 "$server_pid" 2>/dev/null || fail "server exited before listening"
    sleep 0.1
  done
  [[ -n "$line" ]] || fail "server did not print its listening line within 30 s"
  port="${line##*:}"
  [[ "$port" =~ ^[0-9]+$ ]] || fail "cannot read the port from: $line"
  echo "server pid $server_pid on port $port (uid $(stat -c %u "/proc/$server_pid"))"
}

stop_server() {
  kill -TERM "$server_pid"
  for _ in $(seq 200); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$server_pid" 2>/dev/null && fail "server still running 20 s after SIGTERM"
  local rc=0
  wait "$server_pid" || rc=$?
  server_pid=""
  ((rc == 0)) || fail "server exited with status $rc after SIGTERM"
  grep -q '^tilecrush: stopped cleanly' "$server_log" || fail "no 'stopped cleanly' after SIGTERM"
}

# Runs the HEALTHCHECK command with the container's environment.
run_healthcheck() {
  env -i PATH=/usr/local/bin:/usr/bin:/bin TILECRUSH_BIND=127.0.0.1 TILECRUSH_PORT="$port" \
    bash "$healthcheck"
}

# hello over a WebSocket from bash: the player is written to the database
# before the server answers welcome. The frame is masked with a zero key.
ws_hello() {
  local name="$1" buf="" c payload header
  exec 3<>"/dev/tcp/127.0.0.1/$port" || fail "cannot connect to port $port"
  printf 'GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n' "$port" >&3
  while [[ "$buf" != *$'\r\n\r\n' ]]; do
    IFS= read -r -N 1 -t 10 c <&3 || fail "no WebSocket handshake answer; got: $buf"
    buf+="$c"
  done
  [[ "$buf" == "HTTP/1.1 101"* ]] || fail "WebSocket upgrade refused: ${buf%%$'\r'*}"
  payload="{\"type\":\"hello\",\"id\":1,\"name\":\"$name\"}"
  printf -v header '\\x81\\x%02x\\x00\\x00\\x00\\x00' $((0x80 | ${#payload}))
  # shellcheck disable=SC2059  # the header holds the frame's escape sequences
  printf "$header%s" "$payload" >&3
  buf=""
  while [[ "$buf" != *'"welcome"'* ]]; do
    IFS= read -r -N 1 -t 10 c <&3 || fail "no welcome to hello; got: $buf"
    buf+="$c"
    [[ "$buf" == *'"error"'*'}' ]] && fail "hello refused: $buf"
  done
  printf '\x88\x80\x00\x00\x00\x00' >&3  # close frame
  exec 3>&-
}

step "first start on an empty volume"
start_server 1
run_healthcheck || fail "the image's healthcheck failed on a running server"
health="$(curl -fsS "http://127.0.0.1:$port/api/health")" || fail "GET /api/health failed"
[[ "$health" =~ \"status\"[[:space:]]*:[[:space:]]*\"ok\" ]] || fail "health answer: $health"
cmp -s <(curl -fsS "http://127.0.0.1:$port/") "$static_dir/index.html" ||
  fail "GET / is not the installed web-client/index.html"
ws_hello "$player"
curl -fsS "http://127.0.0.1:$port/api/players/$player" | grep -q "\"$player\"" ||
  fail "player $player not found after welcome"

step "SIGTERM stops it cleanly; the database survives in the volume"
stop_server
[[ -s "$db" ]] || fail "no database at $db"
[[ "$(head -c 15 "$db")" == "SQLite format 3" ]] || fail "$db is not an SQLite database"
# Header bytes 18 and 19 are 2 for a WAL-mode database.
[[ "$(od -An -tu1 -j18 -N2 "$db" | tr -s ' ')" == " 2 2" ]] || fail "$db is not in WAL mode"
if [[ -s "$db-wal" ]]; then fail "the WAL was not checkpointed into $db on shutdown"; fi
leftovers="$(find "$volume" ! -type d ! -name tilecrush.db ! -name tilecrush.db-wal ! -name tilecrush.db-shm -printf '%P\n')"
[[ -z "$leftovers" ]] || fail "unexpected files in the volume: $leftovers"
if command -v sqlite3 >/dev/null; then
  [[ "$(sqlite3 "$db" 'PRAGMA integrity_check')" == ok ]] || fail "integrity_check failed"
  [[ "$(sqlite3 "$db" "SELECT count(*) FROM players WHERE name = '$player'")" == 1 ]] ||
    fail "player row missing in $db"
  echo "sqlite3: integrity_check ok, player row present"
else
  echo "sqlite3 CLI not installed: integrity_check left to the restart below"
fi

step "second start on the same volume finds the data"
start_server 2
run_healthcheck || fail "healthcheck failed after the restart"
curl -fsS "http://127.0.0.1:$port/api/players/$player" | grep -q "\"$player\"" ||
  fail "player $player lost across the restart"
stop_server
if run_healthcheck 2>/dev/null; then fail "healthcheck passes with the server stopped"; fi

echo "PASS: install prefix, runtime packages, health, SIGTERM and the volume"
