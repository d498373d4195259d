#!/usr/bin/env bash
# Installs the system packages (scripts/install-deps.sh), then configures and
# builds layout-opt in ./build (CMake + Ninja, Debian's LLVM/MLIR 22).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
BUILD_DIR="${BUILD_DIR:-$root/build}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
fi
cmake --build "$BUILD_DIR"
