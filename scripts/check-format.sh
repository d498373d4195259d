#!/usr/bin/env bash
# Checks that every C/C++ source of the tree is formatted as .clang-format
# (LLVM style) says, with Debian's clang-format-22 (scripts/install-deps.sh).
# Prints the files that differ and exits 1 if any does.
#   bash scripts/check-format.sh          # check
#   bash scripts/check-format.sh --fix    # reformat in place
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLANG_FORMAT="${CLANG_FORMAT:-/usr/lib/llvm-22/bin/clang-format}"
if [ ! -x "$CLANG_FORMAT" ]; then
  echo "check-format: $CLANG_FORMAT not found (apt-get install clang-format-22)"
  exit 1
fi
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard \
    '*.cpp' '*.h' '*.c' '*.cu' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
else
  mapfile -t files < <(find include lib tools python test unittests bench \
    -name '*.cpp' -o -name '*.h' -o -name '*.c' -o -name '*.cu')
fi
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "check-format: $f is not formatted (bash scripts/check-format.sh --fix)"
    bad=$((bad + 1))
  fi
done
echo "check-format: ${#files[@]} files, $bad not formatted"
[ "$bad" -eq 0 ]
