#!/usr/bin/env bash
# Sets up and runs every test: the GoogleTest suites (engine, protocol,
# storage, server integration), the engine under ASan+UBSan, and the browser
# tests. Exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
ctest --preset release -j "$(nproc)"
