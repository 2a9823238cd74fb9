#!/usr/bin/env bash
# kfm's NEON kernels against the ARM libraries a user would pick instead, in instructions per call under
# qemu user mode (no board needed), counted the way arm-instructions.sh counts (one "Trace" line per
# executed instruction; each figure is count(2 calls) - count(1 call), so start-up and setup cancel out):
#   - FFT, n = 16 ... 4096: kfm (the table's split-complex fft) vs FFTW3f (split guru plan, FFTW_MEASURE
#     under qemu, its wisdom saved and re-imported so the counted plan is deterministic) vs Ne10
#     (ne10_fft_c2c_1d_float32_neon, interleaved complex; AArch64 only: Debian's libne10-dev:armhf cannot
#     be installed beside libne10-dev:arm64);
#   - the cos_sin feature stage (per-argument scale and weight, bench/features_bench.cpp's values),
#     D = 1024 and 4096: kfm vs SLEEF's AdvSIMD sincosf u10 and u35 (AArch64 only).
#   - SSF's physical limit at (784, 8192) and (64, 1024), gaussian, seed 1: the whole transform against
#     its two essential stages, its FFTs alone and its feature stage alone (the map opened on NEON).
# Then the accuracy of the cos_sin stage on the NEON table (bench/peers/trig_accuracy.cpp, every 997th float
# of each range; beside SLEEF's AdvSIMD u10 / u35 on AArch64); the script fails when kfm breaks its bounds.
#
#   [KFM_TOOL=build/native/kfm] [KFM_ARM_PEERS="fft features ssf accuracy"] \
#       scripts/firmware/arm-peers.sh [aarch64|armv7 ...]     (default: both)
#       KFM_TOOL: a native kfm that writes the SSF maps.
#       KFM_ARM_PEERS: the tables to print (default: all four); KFM_ARM_PEERS=ssf, for instance, gives the
#       SSF rows alone in a few minutes.
#
# Needs libfftw3-dev:arm64 / :armhf, libne10-dev:arm64, libsleef-dev:arm64 (scripts/ci/install-deps.sh).
# Prints Markdown tables with the ratio peer / kfm (> 1: kfm executes fewer instructions). Instruction
# counts ignore memory stalls and issue width: a proxy beside timings on a board, not a time.
# Build directories: build/arm-peers/<arch>.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out_dir=$root/build/arm-peers
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(aarch64 armv7)
kfm_tool=${KFM_TOOL:-$root/build/native/kfm}
[ -x "$kfm_tool" ] || { echo "arm-peers: no native kfm at $kfm_tool (set KFM_TOOL)" >&2; exit 2; }
ssf_sizes=("784 8192" "64 1024")
tables=${KFM_ARM_PEERS:-fft features ssf accuracy}
for t in $tables; do
  case "$t" in
    fft | features | ssf | accuracy) ;;
    *) echo "arm-peers: error: unknown table '$t' in KFM_ARM_PEERS (fft, features, ssf, accuracy)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out_dir/maps"
for c in "${ssf_sizes[@]}"; do
  read -r d D <<<"$c"
  map=$out_dir/maps/ssf-$d-$D.kfm
  [ -f "$map" ] || "$kfm_tool" build --method ssf --kernel gaussian --input-dim "$d" --features "$D" --seed 1 \
                     -o "$map" >/dev/null
done

# build ARCH TRIPLE: the Release runtime and the probe in $out_dir/ARCH.
build() {
  local arch=$1 triple=$2 dir=$out_dir/$1
  mkdir -p "$dir/headers"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFM_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/$triple.cmake" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; return 1; }
  cmake --build "$dir" -j2 --target kfm_runtime >"$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; return 1; }
  # the peers' headers alone (the host's /usr/include would shadow the target's C library)
  ln -sfn /usr/include/fftw3.h "$dir/headers/fftw3.h"
  local flags=(-O2 -std=c++17 -I"$root/include" -I"$root/src" -I"$root/bench" -I"$dir/headers")
  local sources=(scripts/firmware/arm_peers_probe.cpp) libs=("$dir/libkfm_runtime.a" "/usr/lib/$triple/libfftw3f.a")
  if [ "$arch" = aarch64 ]; then
    ln -sfn /usr/include/ne10 "$dir/headers/ne10"
    ln -sfn "/usr/include/$triple/sleef.h" "$dir/headers/sleef.h"
    cp -f "/usr/lib/$triple/libsleef.so.3" "$dir/"  # Debian ships SLEEF as a shared library only
    sources+=(bench/peers/sleef_features_advsimd.cpp)
    libs+=("/usr/lib/$triple/libNE10.a" "$dir/libsleef.so.3")
  else
    flags+=(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
  fi
  "$triple-g++" "${flags[@]}" "${sources[@]}" "${libs[@]}" -lm -o "$dir/probe"
  local isa=NEON32 sleef=()
  [ "$arch" != aarch64 ] || { isa=NEON64; sleef=(-DKFM_HAVE_SLEEF=1 bench/peers/sleef_features_advsimd.cpp "$dir/libsleef.so.3"); }
  "$triple-g++" "${flags[@]}" -DKFM_HAVE_$isa=1 bench/peers/trig_accuracy.cpp "${sleef[@]}" "$dir/libkfm_runtime.a" \
    -lm -o "$dir/trig_accuracy"
}

# count ARGS...: instructions the probe executes.
count() {
  local n
  n=$("${qemu[@]}" -singlestep -d nochain,exec -D /dev/stderr "$probe" "$@" 2>&1 >/dev/null | grep -c '^Trace')
  [ "$n" -gt 0 ] || { echo "arm-peers: no trace for $*" >&2; return 1; }
  echo "$n"
}

# per_call KIND IMPL N [WISDOM]: instructions per call; fails when the probe fails.
per_call() {
  local kind=$1 impl=$2 n=$3 extra=("${@:4}")
  "${qemu[@]}" "$probe" "$kind" "$impl" "$n" 1 "${extra[@]}" >/dev/null \
    || { echo "arm-peers: probe failed: $kind $impl $n" >&2; return 1; }
  local one two
  one=$(count "$kind" "$impl" "$n" 1 "${extra[@]}")
  two=$(count "$kind" "$impl" "$n" 2 "${extra[@]}")
  echo $((two - one))
}

ratio() { awk -v p="$1" -v k="$2" 'BEGIN { printf "%.2f", p / k }'; }

# fft_table NAME: kfm's FFT against FFTW (and Ne10 on AArch64), n = 16 ... 4096.
fft_table() {
  local name=$1 wisdom=$out_dir/$1/fftw.wisdom
  rm -f "$wisdom"
  echo
  if [ "$name" = aarch64 ]; then
    echo "| arch | n | kfm FFT | FFTW | Ne10 | FFTW / kfm | Ne10 / kfm |"
    echo "|---|---|---|---|---|---|---|"
  else
    echo "| arch | n | kfm FFT | FFTW | FFTW / kfm |"
    echo "|---|---|---|---|---|"
  fi
  for log2_n in 4 5 6 7 8 9 10 11 12; do
    local n=$((1 << log2_n)) k f e
    [ -f "$wisdom" ] || : >"$wisdom"
    "${qemu[@]}" "$probe" fft fftw-plan "$n" 0 "$wisdom" >/dev/null || { echo "arm-peers: FFTW planning failed at $n" >&2; exit 1; }
    k=$(per_call fft kfm "$n")
    f=$(per_call fft fftw "$n" "$wisdom")
    if [ "$name" = aarch64 ]; then
      e=$(per_call fft ne10 "$n")
      echo "| $name | $n | $k | $f | $e | $(ratio "$f" "$k") | $(ratio "$e" "$k") |"
    else
      echo "| $name | $n | $k | $f | $(ratio "$f" "$k") |"
    fi
  done
}

# features_table NAME: the cos_sin stage against SLEEF (AArch64 only).
features_table() {
  local name=$1
  [ "$name" = aarch64 ] || return 0
  echo
  echo "| arch | D | kfm cos_sin | SLEEF u10 | SLEEF u35 | u10 / kfm | u35 / kfm |"
  echo "|---|---|---|---|---|---|---|"
  for D in 1024 4096; do
    local k u10 u35
    k=$(per_call features kfm "$D")
    u10=$(per_call features sleef-u10 "$D")
    u35=$(per_call features sleef-u35 "$D")
    echo "| $name | $D | $k | $u10 | $u35 | $(ratio "$u10" "$k") | $(ratio "$u35" "$k") |"
  done
}

# ssf_table NAME: SSF's whole transform against its two stages.
ssf_table() {
  local name=$1
  echo
  echo "| arch | d | D | SSF transform | its FFTs | its feature stage | SSF / (FFTs + features) |"
  echo "|---|---|---|---|---|---|---|"
  for c in "${ssf_sizes[@]}"; do
    local d D map total ffts feats
    read -r d D <<<"$c"
    map=$out_dir/maps/ssf-$d-$D.kfm
    total=$(per_call ssf "$map" total)
    ffts=$(per_call ssf "$map" fft)
    feats=$(per_call ssf "$map" features)
    echo "| $name | $d | $D | $total | $ffts | $feats | $(ratio "$total" $((ffts + feats))) |"
  done
}

# accuracy_table NAME: the cos_sin stage's errors (fails when kfm breaks its bounds).
accuracy_table() {
  local name=$1
  echo
  "${qemu[@]}" "$out_dir/$name/trig_accuracy" --stride 997 | sed "s/^| \[/| $name | [/; s/^| range/| arch | range/; s/^|---|/|---|---|/"
}

for name in "${archs[@]}"; do
  case "$name" in
    aarch64) triple=aarch64-linux-gnu ;;
    armv7) triple=arm-linux-gnueabihf ;;
    *) echo "arm-peers: error: unknown architecture '$name' (aarch64 or armv7)" >&2; exit 2 ;;
  esac
  build "$name" "$triple"
  probe=$out_dir/$name/probe
  qemu=(qemu-${name/armv7/arm} -L "/usr/$triple" -E "LD_LIBRARY_PATH=/usr/$triple/lib:$out_dir/$name")
  for t in $tables; do "${t}_table" "$name"; done
done
