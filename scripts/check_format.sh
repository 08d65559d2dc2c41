#!/usr/bin/env bash
# Checks that every C++ file (*.cpp, *.hpp, *.h) git tracks or would track
# (new files not yet added included, ignored ones not) is formatted as
# .clang-format says, with Debian's clang-format-14 (scripts/setup.sh --test
# installs it; other versions format some constructs differently, so the
# version is pinned). Lists each file that differs and fails.
#   scripts/check_format.sh         check
#   scripts/check_format.sh --fix   reformat the offending files in place
set -euo pipefail
cd "$(dirname "$0")/.."

clang_format="${CLANG_FORMAT:-clang-format-14}"
command -v "$clang_format" >/dev/null ||
  { echo "check_format: $clang_format missing (scripts/setup.sh --test installs it)" >&2; exit 1; }

files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do [[ -f "$f" ]] && files+=("$f"); done \
    < <(git ls-files -z --cached --others --exclude-standard -- '*.cpp' '*.hpp' '*.h')
else
  while IFS= read -r -d '' f; do files+=("$f"); done \
    < <(find bench game protocol server storage tests tools \
          \( -name node_modules -prune \) -o \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
          -type f -print0 | sort -z)
fi

# One run over every file (--Werror makes each difference an error naming
# its file; the run goes on past the first file).
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
"$clang_format" --style=file --dry-run --Werror "${files[@]}" 2>"$log" || status=$?
bad=()
while IFS= read -r f; do bad+=("$f"); done \
  < <(sed -n 's|^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*|\1|p' "$log" | sort -u)
if ((status != 0 && ${#bad[@]} == 0)); then
  echo "check_format: $clang_format failed:" >&2
  cat "$log" >&2
  exit 1
fi

if ((${#bad[@]} == 0)); then
  echo "check_format: ${#files[@]} files formatted"
  exit 0
fi
if [[ "${1:-}" == "--fix" ]]; then
  "$clang_format" --style=file -i "${bad[@]}"
  echo "check_format: reformatted ${#bad[@]} files:"
  printf '  %s\n' "${bad[@]}"
  exit 0
fi
echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format" \
     "(see: $clang_format --dry-run FILE; fix: scripts/check_format.sh --fix):" >&2
printf '  %s\n' "${bad[@]}" >&2
exit 1
