#!/usr/bin/env bash
# Installs the Debian packages kfm needs to build, test (natively and for ARM under qemu) and benchmark.
# Idempotent: packages already installed are skipped, and apt-get update runs only when something is
# missing. `--with-python` adds threaded OpenBLAS, for timing scikit-learn in scripts/research/compare_sklearn.py,
# scripts/research/results_models.py and scripts/research/sklearn_rbf_throughput.py.
# The ARM builds of kfm_bench need the target's Google Benchmark and FFTW (Debian multiarch); they are
# installed best-effort: when a mirror cannot provide them, a warning is printed and the ARM builds
# leave kfm_bench out (cmake/dependencies.cmake), everything else still installs.
# The Cortex-M stage (examples/cortex-m/) needs the bare-metal toolchain, newlib (libstdc++ for its C++
# headers only) and QEMU's system emulator for the mps2/mps3 boards: about 0.9 GB, a group of their own.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache                # build (ccache: test-all.sh's builds share objects)
  make pkgconf                                # the package test's pkg-config + Makefile consumer
  libxsimd-dev libeigen3-dev libboost-math-dev liblbfgspp-dev   # header-only libraries
  doctest-dev libbenchmark-dev libfftw3-dev   # tests, benchmarks, the FFTW peer in the benchmarks
  libsleef-dev                                # the SLEEF peer of the feature stage (optional in kfm_bench)
  g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user      # ARM cross builds run under qemu
  python3-dev pybind11-dev python3-pybind11   # the Python package (python/)
  python3-numpy python3-sklearn python3-pytest python3-matplotlib python3-dask python3-distributed  # its tests
  python3-venv python3-build python3-setuptools python3-wheel mypy   # pip install ., the wheel, its type check
)
# Bare-metal Cortex-M builds, run under qemu-system-arm (examples/cortex-m/run_cortex_m_test.sh)
cortex_m_packages=(gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-dev qemu-system-arm)
packages+=("${cortex_m_packages[@]}")
# kfm_bench for ARM links the target's Google Benchmark and FFTW (Debian multiarch, foreign_archs below);
# SLEEF and Ne10 (AArch64) are the optional peers of kfm_bench and scripts/firmware/arm-peers.sh. Ne10 for
# ARMv7 is left out: libne10-dev:armhf and :arm64 ship the same header paths and cannot both be installed.
arm_bench_packages=(libbenchmark-dev:arm64 libbenchmark-dev:armhf libfftw3-dev:arm64 libfftw3-dev:armhf
                    libsleef-dev:arm64 libne10-dev:arm64)
foreign_archs=(arm64 armhf)
for arg in "$@"; do
  case "$arg" in
    --with-python) packages+=(libopenblas0-pthread) ;;   # threaded OpenBLAS: scikit-learn's speed in comparisons
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

# A name without :arch means the native (or arch: all) package; with foreign architectures added,
# dpkg-query lists one line per installed architecture of a multiarch package.
native_arch=$(dpkg --print-architecture)
missing_of() {
  local p arch
  for p in "$@"; do
    arch=$native_arch
    [[ "$p" != *:* ]] || arch=${p#*:}
    if ! dpkg-query -W -f='${Architecture} ${Status}\n' "$p" 2>/dev/null \
         | grep -qE "^($arch|all) install ok installed$"; then
      echo "$p"
    fi
  done
}
mapfile -t missing < <(missing_of "${packages[@]}")
mapfile -t missing_arm < <(missing_of "${arm_bench_packages[@]}")

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_arm[@]} -eq 0 ]; then
  echo "install-deps: all $((${#packages[@]} + ${#arm_bench_packages[@]})) packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: error: not root and no sudo to install: ${missing[*]} ${missing_arm[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
for a in "${foreign_archs[@]}"; do
  dpkg --print-foreign-architectures | grep -qx "$a" || "${sudo[@]}" dpkg --add-architecture "$a"
done
# A mirror caught mid-sync fails one index (seen: bookworm-security armhf); the installs below still
# fail clearly if a needed package is then unknown.
"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update || echo "install-deps: warning: apt-get update reported errors" >&2
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
fi
if [ ${#missing_arm[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing_arm[*]} (kfm_bench for ARM)"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing_arm[@]}" ||
    echo "install-deps: warning: could not install ${missing_arm[*]}; the ARM builds will leave kfm_bench out" >&2
fi
