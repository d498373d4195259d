#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run (issue 14): builds
# layout-opt, its tools and unit tests instrumented in ./build-asan (the
# Python package is left out: a Python interpreter would need libasan
# preloaded), then runs the lit suite, the unit tests and a fuzzer run
# under both sanitizers. Any report fails the run: UBSan halts on its first
# finding (-fno-sanitize-recover), ASan and LeakSanitizer exit non-zero.
#
# The options and suppressions are checked in under scripts/sanitizers/,
# each with its reason: asan.options turns off only ASan's hand-written
# poisoning (LLVM's allocator annotations, which disagree between this
# instrumented project and Debian's uninstrumented libMLIR); lsan.supp is
# for leaks of objects those libraries allocate once per process. Every
# compiler-inserted check stays on.
#
# Usage: bash scripts/sanitize.sh        (about 40 minutes on 2 cores)
# Ends with the line "N passed, N failed", like scripts/test.sh.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
B="${SAN_BUILD_DIR:-$root/build-asan}"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
# -fno-sanitize=vptr: LLVM and MLIR are built without RTTI, which the vptr
# check needs (GCC cannot instrument it); every other UBSan check is on.
san="$san -fno-sanitize=vptr -fno-omit-frame-pointer"
if [ ! -f "$B/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$B" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" \
    -DLAYOUT_BUILD_PYTHON=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir || { echo "0 passed, 1 failed"; exit 1; }
fi
cmake --build "$B" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

supp="$root/scripts/sanitizers"
# Every report also goes to a file under $reports_dir, so that one inside a
# command a test expects to fail (`not layout-opt ...`) still counts.
reports_dir="$(mktemp -d)"
asan_options=$(grep -v '^#' "$supp/asan.options" | grep -v '^$' | paste -sd: -)
export ASAN_OPTIONS="$asan_options:log_path=$reports_dir/asan"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports_dir/ubsan"

# The CMake package test builds a consumer against the instrumented
# libraries: it needs the same flags.
export CXXFLAGS="$san" LDFLAGS="$san"
LIT=/usr/lib/llvm-22/bin/lit
log="$(mktemp)"
"$LIT" -v --timeout="${LAYOUT_TEST_TIMEOUT:-1800}" "$B/test" "$B/test/Unit" \
  2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^ *$1 *: +[0-9]+" "$log" | awk -F: '{print $2}' | awk '{print $1}' | head -1; }
passed=$(count Passed); passed=${passed:-0}
failed=0
for kind in Failed Unresolved "Timed Out" "Unexpectedly Passed"; do
  n=$(count "$kind"); failed=$((failed + ${n:-0}))
done
# Reports that reached the log (lit shows the output of failing tests)
# count too, in case a runtime wrote to stderr instead of log_path.
reports=$(( $(find "$reports_dir" -type f | wc -l) + \
  $(grep -cE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log") ))
if [ "$reports" -gt 0 ]; then
  echo "sanitizer reports: $reports"
  for f in "$reports_dir"/*; do echo "== $f"; head -40 "$f"; done
  failed=$((failed + reports))
else
  echo "sanitizer reports: 0"
fi
rm -rf "$log" "$reports_dir"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
