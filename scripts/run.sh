#!/usr/bin/env bash
# Sets up, builds and starts the server on the embedded default database
# (data/tilecrush.db). Extra arguments go to the server (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release --target tilecrush_server
mkdir -p data
exec build/release/server/tilecrush_server --db data/tilecrush.db --static web-client "$@"
