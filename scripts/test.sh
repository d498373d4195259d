#!/usr/bin/env bash
# Sets up everything (apt packages, build) and runs every test: the lit suite
# (FileCheck tests of layout-opt) and the GoogleTest unit tests (run by lit,
# one lit test per gtest shard, counted per gtest case), each with a time
# limit. Ends with the line "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
BUILD_DIR="${BUILD_DIR:-$root/build}"
LIT=/usr/lib/llvm-22/bin/lit
log="$(mktemp)"
# Every test has a time limit (lit's --timeout needs python3-psutil): a test
# that hangs fails as "Timed Out" instead of stalling the run.
"$LIT" -v --time-tests --timeout="${LAYOUT_TEST_TIMEOUT:-300}" "$BUILD_DIR/test" \
  "$BUILD_DIR/test/Unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^ *$1 *: +[0-9]+" "$log" | awk -F: '{print $2}' | awk '{print $1}' | head -1; }
passed=$(count Passed); passed=${passed:-0}
failed=0
for kind in Failed Unresolved "Timed Out" "Unexpectedly Passed"; do
  n=$(count "$kind")
  failed=$((failed + ${n:-0}))
done
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
exit "$status"
