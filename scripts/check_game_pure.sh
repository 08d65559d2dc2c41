#!/usr/bin/env bash
# game/ is the pure core (CONTRIBUTING.md): no I/O, clock, threads, JSON,
# Boost or randomness of its own, so that a game is a function of its setup
# and its moves and can be replayed anywhere. This check holds that by the
# text of game/src and game/include:
#  - every standard header it includes is on the list below (a new one is a
#    decision: add it here if it is pure); OpenSSL only for digests and HMAC;
#  - no clock, random device, environment or C randomness is named (<chrono>
#    is there for season_period.cpp's calendar arithmetic on day numbers the
#    caller gives, never to read the time).
#   scripts/check_game_pure.sh    exit 0 when pure, 1 with each offence
set -euo pipefail
cd "$(dirname "$0")/.."

allowed='algorithm|array|bit|cassert|chrono|compare|concepts|cstddef|cstdint|cstring|functional|initializer_list|iterator|limits|memory|numeric|optional|span|stdexcept|string|string_view|tuple|type_traits|utility|variant|vector|openssl/evp\.h|openssl/hmac\.h'
forbidden='_clock\b|random_device|getenv|\bstd::time\(|\bs?rand\(|RAND_bytes|\bstd::thread\b|\bfopen\b|nlohmann|boost::'

status=0
while IFS= read -r line; do
  echo "game/ includes a header not on scripts/check_game_pure.sh's list: $line" >&2
  status=1
done < <(grep -rnE '^\s*#\s*include\s*<' game/src game/include |
         grep -vE "#\s*include\s*<($allowed)>" || true)
while IFS= read -r line; do
  echo "game/ names something impure: $line" >&2
  status=1
done < <(grep -rnE "$forbidden" game/src game/include || true)
((status == 0)) && echo "game/ is pure: only the allowed headers, no clock, randomness, threads or I/O"
exit "$status"
