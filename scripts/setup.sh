#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks to build and test
# tilecrush. Idempotent: packages already present are not touched.
#   scripts/setup.sh            build and server packages
#   scripts/setup.sh --test     also the test tools: clang-format-14
#                               (scripts/check_format.sh), prometheus, for
#                               promtool (scripts/check_metrics.sh),
#                               postgresql-15 (the pg. tests'
#                               throw-away cluster, scripts/pg_scratch.sh),
#                               nginx (the cluster test, scripts/cluster.sh), and
#                               Node.js with tests/schema's ajv and
#                               swagger-parser (the contract checks), and
#                               podman, runc, netavark, aardvark-dns, iptables,
#                               podman-compose, debootstrap (the image
#                               test, tests/docker/image_test.sh)
#   scripts/setup.sh --browser  the test tools and chromium and
#                               playwright-core (browser tests)
#   scripts/setup.sh --bench    build and server packages, nginx and wrk
#                               (bench/leaderboard_http.sh)
# (Where systemd runs, Debian's prometheus package also starts a
# Prometheus server on port 9090; only its promtool is used here, which is
# why scripts/run.sh's plain setup leaves it out. Likewise Debian's nginx
# starts a system nginx on port 80 there; the benchmark and
# scripts/cluster.sh run their own instances from private configs and leave
# that one alone.)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make g++ pkg-config libboost1.81-dev nlohmann-json3-dev libsqlite3-dev libssl-dev
          libpq-dev libgtest-dev libgmock-dev libbenchmark-dev curl clang-14 libclang-rt-14-dev lld)
case "${1:-}" in
  "") ;;
  --test) packages+=(clang-format-14 prometheus nodejs npm postgresql-15 nginx) ;;
  # The emoji font: the streaks and the share text use emoji, which a bare
  # chromium would draw as empty boxes.
  --browser) packages+=(clang-format-14 prometheus chromium fonts-noto-color-emoji nodejs npm
                        postgresql-15 nginx) ;;
  --bench) packages+=(nginx wrk) ;;
  *) echo "usage: scripts/setup.sh [--test | --browser | --bench]" >&2; exit 2 ;;
esac
# The image test (tests/docker/image_test.sh): podman with runc, netavark and
# aardvark-dns (the compose networks' names), iptables (netavark's firewall
# for a published port: without it a container with `-p` fails with
# "netavark: No such file or directory"), podman-compose, and debootstrap
# for base images that cannot be pulled.
case "${1:-}" in
  --test | --browser) packages+=(podman runc netavark aardvark-dns iptables podman-compose
                                 debootstrap) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Debian's nodejs may be replaced by a newer node on the PATH: accept either.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -ra missing <<<"${missing[*]}"

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [[ ("${1:-}" == --test || "${1:-}" == --browser) && ! -d tests/schema/node_modules/ajv ]]; then
  echo "setup: installing ajv and swagger-parser (tests/schema)"
  (cd tests/schema && npm ci --no-audit --no-fund --silent)
fi
if [[ "${1:-}" == "--browser" && ! -d tests/browser/node_modules/playwright-core ]]; then
  echo "setup: installing playwright-core (no browser download: Debian's chromium is used)"
  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
