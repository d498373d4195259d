#!/usr/bin/env bash
# Installs every system package layout-opt needs on Debian bookworm.
# Idempotent; uses apt only (Debian's archive, including bookworm-security,
# which carries LLVM/MLIR 22). Run as root (or with sudo available).
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22
  libzstd-dev zlib1g-dev libedit-dev libxml2-dev libcurl4-openssl-dev
  clang-format-22
  rocm-device-libs
  libgtest-dev
  python3 python3-dev pybind11-dev python3-numpy python3-pytest python3-psutil
  python3-venv
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
