#!/usr/bin/env bash
# Deterministic ARM cost figures without ARM hardware: instructions executed per transform under qemu
# user mode, for the NEON kernels, the scalar kernels (the same build, the map opened with ISA "scalar")
# and the dense map (rff) at the same (d, D).
#
#   scripts/firmware/arm-instructions.sh [KFM_TOOL]
#       KFM_TOOL: a native kfm that writes the maps (default build/native/kfm). Builds the Release runtime
#       (KFM_RUNTIME_ONLY, every projection, scalar table on) for AArch64 and ARMv7, links
#       scripts/firmware/arm_instructions_probe.c statically, and prints a Markdown table.
#
# qemu runs one instruction per translation block (-singlestep) and logs every block it executes
# (-d nochain,exec), so the log has one "Trace" line per executed instruction. Each figure is
# count(2 transforms) - count(1 transform): start-up, file reading and open cancel out. The counts are
# deterministic (the same input every time): the dense (784, 8192) NEON figure came out identical,
# 3,366,433, with and without the -dfilter below.
# Logging costs about 2 us per instruction, so the functions only open runs (the checksum and the
# verify_* checks: 138 M instructions for the 12.8 MB dense (784, 8192) map) are left out of the log
# with -dfilter; they cancel out either way.
# Instruction counts ignore memory stalls and issue width: a proxy beside timings on a board, not a time.
# Build directories: build/arm-instructions/{aarch64,armv7,maps}.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
kfm_tool=${1:-$root/build/native/kfm}
[ -x "$kfm_tool" ] || { echo "arm-instructions: no native kfm at $kfm_tool (give its path)" >&2; exit 2; }
out_dir=$root/build/arm-instructions

# The headline configurations: method d D.
configs=(
  "ssf 784 8192" "rff 784 8192"
  "sorf 64 1024" "quadrature 64 1024" "ssf 64 1024" "rff 64 1024"
  "sorf 8 128" "quadrature 8 128" "ssf 8 128" "rff 8 128"
)

mkdir -p "$out_dir/maps"
for c in "${configs[@]}"; do
  read -r method d D <<<"$c"
  map=$out_dir/maps/$method-$d-$D.kfm
  [ -f "$map" ] || "$kfm_tool" build --method "$method" --kernel gaussian --input-dim "$d" --features "$D" \
                     --seed 1 -o "$map" >/dev/null
done

# build ARCH TRIPLE: the runtime and the statically linked probe in $out_dir/ARCH.
build() {
  local arch=$1 triple=$2 dir=$out_dir/$1
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFM_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/$triple.cmake" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; return 1; }
  cmake --build "$dir" -j2 --target kfm_runtime >"$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; return 1; }
  local cflags=(-O2 -static -I"$root/include")
  [ "$arch" = aarch64 ] || cflags+=(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
  "$triple-gcc" "${cflags[@]}" scripts/firmware/arm_instructions_probe.c "$dir/libkfm_runtime.a" -lm -o "$dir/probe"
}

# log_ranges TRIPLE PROBE: qemu -dfilter address ranges covering everything but open's checks.
log_ranges() {
  local from=0 ranges="" start size
  while read -r start size; do
    [ $((16#$start)) -le "$from" ] || ranges+=$(printf '0x%x..0x%x,' "$from" $((16#$start - 1)))
    [ $((16#$start + 16#$size)) -le "$from" ] || from=$((16#$start + 16#$size))
  done < <("$1-nm" --print-size "$2" | awk '$3 ~ /^[tTwW]$/ && $4 ~ /verify|crc32c/ { print $1, $2 }' | sort)
  printf '%s0x%x..0xffffffffffffffff\n' "$ranges" "$from"
}

# count MAP ISA REPEATS: instructions the probe ($probe, run by the command in $qemu) executes outside
# the ranges $dfilter leaves out.
count() {
  local n
  n=$("${qemu[@]}" -singlestep -d nochain,exec -dfilter "$dfilter" -D /dev/stderr "$probe" "$1" "$2" "$3" \
      2>&1 >/dev/null | grep -c '^Trace')
  [ "$n" -gt 0 ] || { echo "arm-instructions: no trace for $1 $2" >&2; return 1; }
  echo "$n"
}

# per_transform MAP ISA: instructions per transform; fails when the probe fails.
per_transform() {
  "${qemu[@]}" "$probe" "$1" "$2" 1 >/dev/null || { echo "arm-instructions: probe failed on $1 ($2)" >&2; return 1; }
  local one two
  one=$(count "$1" "$2" 1)
  two=$(count "$1" "$2" 2)
  echo $((two - one))
}

echo "| arch | method | d | D | NEON | scalar | scalar / NEON | dense (rff, NEON) / NEON |"
echo "|---|---|---|---|---|---|---|---|"
for arch in aarch64:aarch64-linux-gnu:neon64 armv7:arm-linux-gnueabihf:neon32; do
  IFS=: read -r name triple neon <<<"$arch"
  build "$name" "$triple"
  probe=$out_dir/$name/probe
  dfilter=$(log_ranges "$triple" "$probe")
  qemu=(qemu-${name/armv7/arm} -L "/usr/$triple")
  declare -A neon_count=()
  for c in "${configs[@]}"; do
    read -r method d D <<<"$c"
    map=$out_dir/maps/$method-$d-$D.kfm
    neon_count[$method-$d]=$(per_transform "$map" "$neon")
  done
  for c in "${configs[@]}"; do
    read -r method d D <<<"$c"
    map=$out_dir/maps/$method-$d-$D.kfm
    real_D=$("${qemu[@]}" "$probe" "$map" "$neon" 0 | awk '{ print $3 }')
    n=${neon_count[$method-$d]}
    s=$(per_transform "$map" scalar)
    dense=${neon_count[rff-$d]}
    awk -v a="$name" -v m="$method" -v d="$d" -v D="$real_D" -v n="$n" -v s="$s" -v r="$dense" \
      'BEGIN { printf "| %s | %s | %d | %d | %d | %d | %.2f | %.2f |\n", a, m, d, D, n, s, s / n, r / n }'
  done
  unset neon_count
done
