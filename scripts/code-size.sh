#!/usr/bin/env bash
# Code size an application pays for the runtime: builds the runtime alone (KFM_RUNTIME_ONLY, about 20
# files) for one ARM target with a given projection list, links scripts/code_size_probe.c statically with
# and without its kfm calls (open + transform), and prints the difference of the two programs' .text
# (size -A; also .rodata: the kernel tables and constants).
#
#   scripts/code-size.sh check [KFM_TOOL]
#       the CI check: AArch64, SSF only, no scalar table, -Os. Fails when .text exceeds the limit in
#       scripts/code-size.limit. With KFM_TOOL (a native kfm) it also runs the probe under qemu: an SSF map
#       must transform, an rff (dense) map must be refused with the left-out projection status.
#   scripts/code-size.sh measure ARCH PROJECTIONS OPT
#       one figure: ARCH aarch64 | armv7, PROJECTIONS a ;-list or "all", OPT -Os | -O2. The environment
#       variable KFM_SCALAR_TABLE=ON adds the scalar table (what a build before KFM_SCALAR_TABLE linked).
# Build directories: build/code-size/<arch>-<projections><opt>[-scalar].
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scalar=${KFM_SCALAR_TABLE:-OFF}
build_dir() {
  local p=$2 suffix=""
  [ "$scalar" = OFF ] || suffix=-scalar
  echo "$root/build/code-size/$1-${p//;/+}$3$suffix"
}

# measure ARCH PROJECTIONS OPT: prints "text_bytes rodata_bytes"; the probe is left in build_dir.
measure() {
  local arch=$1 projections=$2 opt=$3 triple
  case $arch in
    aarch64) triple=aarch64-linux-gnu ;;
    armv7) triple=arm-linux-gnueabihf ;;
    *) echo "code-size: unknown ARCH '$arch' (aarch64, armv7)" >&2; return 2 ;;
  esac
  local cmake_projections=()
  [ "$projections" = all ] || cmake_projections=(-DKFM_PROJECTIONS="$projections")
  local dir
  dir=$(build_dir "$arch" "$projections" "$opt")
  mkdir -p "$dir"
  local flags="$opt -DNDEBUG -ffunction-sections -fdata-sections"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None -DKFM_RUNTIME_ONLY=ON \
    -DKFM_SCALAR_TABLE=$scalar "${cmake_projections[@]}" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/$triple.cmake" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; return 1; }
  cmake --build "$dir" -j2 --target kfm_runtime >"$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; return 1; }
  local cflags=($flags -static -Wl,--gc-sections -I"$root/include")
  [ "$arch" = aarch64 ] || cflags+=(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
  "$triple-gcc" "${cflags[@]}" -DKFM_CALLS=0 scripts/code_size_probe.c -o "$dir/probe-base"
  "$triple-gcc" "${cflags[@]}" -DKFM_CALLS=1 scripts/code_size_probe.c "$dir/libkfm_runtime.a" -lm -o "$dir/probe"
  section() { "$triple-size" -A "$1" | awk -v s="$2" '$1 == s { print $2 }'; }
  echo $(($(section "$dir/probe" .text) - $(section "$dir/probe-base" .text))) \
       $(($(section "$dir/probe" .rodata) - $(section "$dir/probe-base" .rodata)))
}

# expect_probe MAP TEXT: the AArch64 probe run on MAP under qemu prints a line starting with TEXT.
expect_probe() {
  local out
  out=$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$probe" "$1" || true)
  if [[ "$out" != "$2"* ]]; then
    echo "code-size: probe on $(basename "$1"): expected '$2...', got '$out'" >&2
    return 1
  fi
  echo "code-size: probe on $(basename "$1"): $out"
}

case ${1:-} in
  check)
    scalar=OFF
    limit=$(awk '$1 == "aarch64-ssf_fft-Os-text" { print $2 }' scripts/code-size.limit)
    figures=$(measure aarch64 ssf_fft -Os)
    read -r text rodata <<<"$figures"
    probe=$(build_dir aarch64 ssf_fft -Os)/probe
    echo "code-size: AArch64, SSF only, -Os: open + transform add .text $text bytes (limit $limit), .rodata $rodata bytes"
    if [ "$text" -gt "$limit" ]; then
      echo "code-size: .text $text bytes exceeds the limit $limit in scripts/code-size.limit" >&2
      exit 1
    fi
    if [ -n "${2:-}" ]; then
      work=$(mktemp -d)
      trap 'rm -rf "$work"' EXIT
      "$2" build --method ssf --kernel gaussian --input-dim 16 --features 256 --seed 1 -o "$work/ssf.kfm" >/dev/null
      "$2" build --method rff --kernel gaussian --input-dim 16 --features 256 --seed 1 -o "$work/rff.kfm" >/dev/null
      expect_probe "$work/ssf.kfm" "ok isa neon64"
      expect_probe "$work/rff.kfm" "open: unknown projection kind, or one this build leaves out"
    fi
    ;;
  measure)
    [ $# -eq 4 ] || { echo "usage: scripts/code-size.sh measure ARCH PROJECTIONS OPT" >&2; exit 2; }
    figures=$(measure "$2" "$3" "$4")
    read -r text rodata <<<"$figures"
    echo "$2 $3 $4: .text $text bytes, .rodata $rodata bytes"
    ;;
  *)
    echo "usage: scripts/code-size.sh check [KFM_TOOL] | measure ARCH PROJECTIONS OPT" >&2
    exit 2
    ;;
esac
