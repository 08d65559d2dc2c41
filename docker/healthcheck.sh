#!/usr/bin/env bash
# The image's HEALTHCHECK: GET /api/health over bash's /dev/tcp, healthy when
# the answer is 200 with "status":"ok". bash is already in debian:bookworm-slim;
# curl would add libcurl and about twenty libraries to the runtime image.
# The address follows the server's own settings: TILECRUSH_PORT (default
# 8080) and TILECRUSH_BIND (a wildcard bind is reached on loopback).
# TILECRUSH_HEALTH_HOST overrides the address.
set -uo pipefail

port="${TILECRUSH_PORT:-8080}"
host="${TILECRUSH_HEALTH_HOST:-${TILECRUSH_BIND:-0.0.0.0}}"
case "$host" in
  0.0.0.0) host=127.0.0.1 ;;
  :: | "[::]") host=::1 ;;
esac

# The whole exchange is bounded: a server that accepts but never answers is
# unhealthy, not a hung check.
# shellcheck disable=SC2016  # the inner script gets host and port as $1, $2
answer="$(timeout 5 bash -c '
  exec 3<>"/dev/tcp/$1/$2" || exit 1
  printf "GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" >&3
  cat <&3
' healthcheck "$host" "$port" 2>/dev/null)" || true

status_line="${answer%%$'\r'*}"
if [[ "$status_line" =~ ^HTTP/1\.[01]\ 200 ]] &&
   [[ "$answer" =~ \"status\"[[:space:]]*:[[:space:]]*\"ok\" ]]; then
  exit 0
fi
echo "unhealthy: ${status_line:-no answer from $host:$port}" >&2
exit 1
