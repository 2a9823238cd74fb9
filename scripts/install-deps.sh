#!/usr/bin/env bash
# Installs the Debian packages kfm needs to build, test (natively and for ARM under qemu) and benchmark.
# Idempotent: packages already installed are skipped, and apt-get update runs only when something is
# missing. `--with-python` adds NumPy, scikit-learn and threaded OpenBLAS for scripts/compare_sklearn.py,
# scripts/results_models.py and scripts/sklearn_rbf_throughput.py.
set -euo pipefail

packages=(
  cmake ninja-build g++                       # build
  make pkgconf                                # the package test's pkg-config + Makefile consumer
  libxsimd-dev libeigen3-dev libboost-math-dev liblbfgspp-dev   # header-only libraries
  doctest-dev libbenchmark-dev libfftw3-dev   # tests, benchmarks, the FFTW peer in the benchmarks
  g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user      # ARM cross builds run under qemu
)
for arg in "$@"; do
  case "$arg" in
    --with-python) packages+=(python3-numpy python3-sklearn python3-matplotlib libopenblas0-pthread) ;;   # OpenBLAS: sklearn speed
    -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: error: not root and no sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
