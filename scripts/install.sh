#!/usr/bin/env bash
# Builds the server in release mode and installs its runtime files (the
# binary and the web client) under a prefix. The Docker image's build stage
# runs exactly this, and so does tests/docker/install_prefix_test.sh.
#   scripts/install.sh BUILD_DIR PREFIX           configure (if BUILD_DIR is new), build, install
#   scripts/install.sh --reuse BUILD_DIR PREFIX   only install what BUILD_DIR already built
#   scripts/install.sh --targets                  print the targets it builds, one a line
# The layout under PREFIX: bin/tilecrush_server, bin/tilecrush_verify (the
# competition verifier), share/tilecrush/web-client/.
# DESTDIR is honoured (cmake --install reads it), for staged installs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every target the install rules name (server/CMakeLists.txt,
# tools/verify/CMakeLists.txt). tests/docker/install_prefix_test.sh checks
# that the installed programs are exactly these, so an install rule added
# without its target here fails that test rather than the image's build.
targets=(tilecrush_server tilecrush_verify)
if [[ "${1:-}" == "--targets" ]]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi

reuse=0
if [[ "${1:-}" == "--reuse" ]]; then
  reuse=1
  shift
fi
if (($# != 2)); then
  echo "usage: scripts/install.sh [--reuse] BUILD_DIR PREFIX" >&2
  exit 2
fi
build_dir="$1"
prefix="$2"

if ((!reuse)); then
  # An existing build directory keeps its own cache (it may be a developer's
  # preset with tests on); a new one gets only what the server needs.
  if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
      -DTILECRUSH_BUILD_TESTS=OFF -DTILECRUSH_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
fi
for program in "$build_dir/server/tilecrush_server" "$build_dir/tools/verify/tilecrush_verify"; do
  if [[ ! -x "$program" ]]; then
    echo "install: $program is not built" >&2
    exit 1
  fi
done
cmake --install "$build_dir" --prefix "$prefix" --strip >/dev/null
