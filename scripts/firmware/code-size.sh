#!/usr/bin/env bash
# Code size an application pays for the runtime: builds the runtime alone (KFM_RUNTIME_ONLY, about 20
# files) for one ARM target with a given projection list, links scripts/firmware/code_size_probe.c statically with
# and without its kfm calls (open + transform), and prints the difference of the two programs' code (the
# sizes of their .text symbols, so that alignment padding does not count) and .rodata (the kernel tables
# and constants).
#
#   scripts/firmware/code-size.sh check [KFM_TOOL]
#       the CI check: AArch64, no scalar table, -Os, SSF only with every nonlinearity and SSF only with
#       cos_sin alone (Gaussian-type kernels). Fails when .text exceeds a limit in scripts/firmware/code-size.limit.
#       With KFM_TOOL (a native kfm) it also runs the probes under qemu: an SSF gaussian map must
#       transform, an rff (dense) map must be refused with the left-out projection status, and the
#       cos_sin-only build must refuse an SSF arccos map with the left-out nonlinearity status (and a
#       hadamard, cos_sin-only build open a sorf map and refuse a tensor-srht map, whose products it leaves out).
#   scripts/firmware/code-size.sh measure ARCH PROJECTIONS OPT [NONLINEARITIES]
#       one figure: ARCH aarch64 | armv7, PROJECTIONS and NONLINEARITIES ;-lists or "all" (the default),
#       OPT -Os | -O2. The environment variable KFM_SCALAR_TABLE=ON adds the scalar table (what a build
#       before KFM_SCALAR_TABLE linked).
# Build directories: build/code-size/<arch>-<projections>[-<nonlinearities>]<opt>[-scalar].
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

scalar=${KFM_SCALAR_TABLE:-OFF}
build_dir() {
  local p=$2 n=${4:-all} suffix="" kinds=""
  [ "$scalar" = OFF ] || suffix=-scalar
  [ "$n" = all ] || kinds="-${n//;/+}"
  echo "$root/build/code-size/$1-${p//;/+}$kinds$3$suffix"
}

# measure ARCH PROJECTIONS OPT [NONLINEARITIES]: prints "text_bytes rodata_bytes"; the probe is left in
# build_dir.
measure() {
  local arch=$1 projections=$2 opt=$3 nonlinearities=${4:-all} triple
  case $arch in
    aarch64) triple=aarch64-linux-gnu ;;
    armv7) triple=arm-linux-gnueabihf ;;
    *) echo "code-size: unknown ARCH '$arch' (aarch64, armv7)" >&2; return 2 ;;
  esac
  local cmake_projections=()
  [ "$projections" = all ] || cmake_projections=(-DKFM_PROJECTIONS="$projections")
  [ "$nonlinearities" = all ] || cmake_projections+=(-DKFM_NONLINEARITIES="$nonlinearities")
  local dir
  dir=$(build_dir "$arch" "$projections" "$opt" "$nonlinearities")
  mkdir -p "$dir"
  local flags="$opt -DNDEBUG -ffunction-sections -fdata-sections"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None -DKFM_RUNTIME_ONLY=ON \
    -DKFM_SCALAR_TABLE=$scalar "${cmake_projections[@]}" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/$triple.cmake" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; return 1; }
  cmake --build "$dir" -j2 --target kfm_runtime >"$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; return 1; }
  local cflags=($flags -static -Wl,--gc-sections -I"$root/include")
  [ "$arch" = aarch64 ] || cflags+=(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
  "$triple-gcc" "${cflags[@]}" -DKFM_CALLS=0 scripts/firmware/code_size_probe.c -o "$dir/probe-base"
  "$triple-gcc" "${cflags[@]}" -DKFM_CALLS=1 scripts/firmware/code_size_probe.c "$dir/libkfm_runtime.a" -lm -o "$dir/probe"
  section() { "$triple-size" -A "$1" | awk -v s="$2" '$1 == s { print $2 }'; }
  # Code bytes: the sizes of the distinct code symbols (one per address), not the .text section size,
  # which also holds the alignment padding of the C library's objects: a 20-byte change in main once
  # moved .text by 4096 bytes.
  code() { "$triple-nm" -S -t d "$1" | awk 'NF == 4 && $3 ~ /^[tTwW]$/ { if ($2 + 0 > size[$1]) size[$1] = $2 + 0 }
                                           END { for (a in size) total += size[a]; print total }'; }
  echo $(($(code "$dir/probe") - $(code "$dir/probe-base"))) \
       $(($(section "$dir/probe" .rodata) - $(section "$dir/probe-base" .rodata)))
}

# expect_probe PROBE MAP TEXT: the AArch64 PROBE run on MAP under qemu prints a line starting with TEXT.
expect_probe() {
  local probe=$1 out
  shift
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
    # check_build LIMIT_NAME DESCRIPTION NONLINEARITIES: one SSF-only AArch64 -Os figure against its limit.
    check_build() {
      local limit figures text rodata
      limit=$(awk -v n="$1" '$1 == n { print $2 }' scripts/firmware/code-size.limit)
      figures=$(measure aarch64 ssf_fft -Os "$3")
      read -r text rodata <<<"$figures"
      echo "code-size: AArch64, $2, -Os: open + transform add .text $text bytes (limit $limit), .rodata $rodata bytes"
      if [ "$text" -gt "$limit" ]; then
        echo "code-size: .text $text bytes exceeds the limit $limit ($1) in scripts/firmware/code-size.limit" >&2
        exit 1
      fi
    }
    check_build aarch64-ssf_fft-Os-text "SSF only" all
    check_build aarch64-ssf_fft-cos_sin-Os-text "SSF only, cos_sin only" cos_sin
    if [ -n "${2:-}" ]; then
      work=$(mktemp -d)
      trap 'rm -rf "$work"' EXIT
      "$2" build --method ssf --kernel gaussian --input-dim 16 --features 256 --seed 1 -o "$work/ssf.kfm" >/dev/null
      "$2" build --method ssf --kernel arccos --order 1 --input-dim 16 --features 256 --seed 1 \
        -o "$work/ssf-arccos.kfm" >/dev/null
      "$2" build --method rff --kernel gaussian --input-dim 16 --features 256 --seed 1 -o "$work/rff.kfm" >/dev/null
      full=$(build_dir aarch64 ssf_fft -Os)/probe
      trimmed=$(build_dir aarch64 ssf_fft -Os cos_sin)/probe
      expect_probe "$full" "$work/ssf.kfm" "ok isa neon64"
      expect_probe "$full" "$work/ssf-arccos.kfm" "ok isa neon64"
      expect_probe "$full" "$work/rff.kfm" "open: unknown projection kind, or one this build leaves out"
      expect_probe "$trimmed" "$work/ssf.kfm" "ok isa neon64"
      expect_probe "$trimmed" "$work/ssf-arccos.kfm" "open: unknown nonlinearity, or one this build leaves out"
      # Products are a nonlinearity a build may leave out too: a hadamard, cos_sin-only runtime opens sorf and
      # refuses tensor-srht's block products (their kernels are not linked).
      measure aarch64 hadamard -Os cos_sin >/dev/null
      "$2" build --method sorf --kernel gaussian --input-dim 16 --features 256 --seed 1 -o "$work/sorf.kfm" >/dev/null
      "$2" build --method tensor-srht --kernel polynomial-sphere --degree 3 --input-dim 16 --features 256 --seed 1 \
        -o "$work/tensor-srht.kfm" >/dev/null
      hadamard_trimmed=$(build_dir aarch64 hadamard -Os cos_sin)/probe
      expect_probe "$hadamard_trimmed" "$work/sorf.kfm" "ok isa neon64"
      expect_probe "$hadamard_trimmed" "$work/tensor-srht.kfm" "open: unknown nonlinearity, or one this build leaves out"
    fi
    ;;
  measure)
    [ $# -eq 4 ] || [ $# -eq 5 ] || {
      echo "usage: scripts/firmware/code-size.sh measure ARCH PROJECTIONS OPT [NONLINEARITIES]" >&2
      exit 2
    }
    figures=$(measure "$2" "$3" "$4" "${5:-all}")
    read -r text rodata <<<"$figures"
    echo "$2 $3 $4 ${5:-all}: .text $text bytes, .rodata $rodata bytes"
    ;;
  *)
    echo "usage: scripts/firmware/code-size.sh check [KFM_TOOL] | measure ARCH PROJECTIONS OPT [NONLINEARITIES]" >&2
    exit 2
    ;;
esac
