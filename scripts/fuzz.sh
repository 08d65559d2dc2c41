#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang++-14, ASan+UBSan) into
# build/fuzz and runs each for a while, one after the other:
#   scripts/fuzz.sh [seconds-per-target]      (default 20)
# Each run starts from a temporary copy of tests/fuzz/corpus/<target>, so the
# committed corpus never grows. A crash stops the script with status 1 and
# leaves the input under build/fuzz/artifacts/<target>/ (tests/fuzz/README.md
# says how to reproduce it). TILECRUSH_FUZZ_TARGETS="fuzz_http ..." runs a subset.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
targets=(${TILECRUSH_FUZZ_TARGETS:-fuzz_protocol fuzz_engine fuzz_http fuzz_ws_frame})
cxx="${TILECRUSH_FUZZ_CXX:-clang++-14}"

cmake -S tests/fuzz -B build/fuzz -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz -j "$(nproc)" --target "${targets[@]}"

work="$(mktemp -d "${TMPDIR:-/tmp}/tilecrush-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

declare -A dicts=([fuzz_protocol]=protocol.dict [fuzz_http]=http.dict [fuzz_ws_frame]=ws_frame.dict)
summary=()
for target in "${targets[@]}"; do
  corpus="$work/$target"
  artifacts="build/fuzz/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp tests/fuzz/corpus/"$target"/* "$corpus"/
  args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  if [[ -n "${dicts[$target]:-}" ]]; then args+=(-dict="tests/fuzz/dict/${dicts[$target]}"); fi
  echo "== $target: ${seconds}s"
  log="$work/$target.log"
  if ! "build/fuzz/$target" "${args[@]}" "$corpus" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FAIL: $target found a crash; input saved under $artifacts/" >&2
    ls -t "$artifacts" | head -n 3 | sed "s|^|  $artifacts/|" >&2
    exit 1
  fi
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)"
  echo "   $target: $execs executions, $cov"
  summary+=("$target=$execs")
done
echo "fuzzing passed: ${summary[*]}"
