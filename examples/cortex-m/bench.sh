#!/usr/bin/env bash
# Instructions per FFT (n = 64 .. 1024), per feature stage (cos and sin of 256 arguments, with its largest
# error) and per SSF transform (16 -> 256, 64 -> 512, 256 -> 4096) on
# bare-metal Cortex-M4F (mps2-an386), M7 (mps2-an500) and M55 (mps3-an547) under qemu-system-arm
# -icount shift=0, for every kernel table of the build (scalar on the M4F and M7, mve and scalar on the
# M55), at -O2 and -Os; with a CMSIS-DSP source tree, also CMSIS-DSP's arm_cfft_f32 and arm_cos_f32 /
# arm_sin_f32 built
# from it with the same compiler and flags (the comparison of docs/benchmarks.md, "Cortex-M").
#   bench.sh KFM_TOOL [CMSIS_DSP_DIR CMSIS_CORE_INCLUDE_DIR]
# KFM_TOOL is a host kfm (it builds the maps). CMSIS_DSP_DIR is a checkout of
# github.com/ARM-software/CMSIS-DSP, CMSIS_CORE_INCLUDE_DIR the CMSIS/Core/Include directory of CMSIS_6;
# without them the CMSIS column is skipped. Cores: KFM_BENCH_CORES (default all three:
# "cortex-m4 cortex-m7 cortex-m55"). Work directory:
# KFM_BENCH_WORK (default a temporary one). Prints the "bench ..." lines of kfm_bench_firmware, each
# prefixed by the core and optimisation level, then a table per core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tool=$1
cmsis_dsp=${2:-}
cmsis_core=${3:-}
if [ -n "$cmsis_dsp" ] && { [ ! -f "$cmsis_dsp/Source/TransformFunctions/arm_cfft_f32.c" ] || [ ! -f "$cmsis_core/cmsis_compiler.h" ]; }; then
  echo "bench.sh: $cmsis_dsp is not a CMSIS-DSP tree or $cmsis_core not CMSIS-Core's Include directory" >&2
  exit 2
fi
if [ -n "${KFM_BENCH_WORK:-}" ]; then
  work=$KFM_BENCH_WORK
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# ---- the maps, as a header of 32-bit words (the model the example's other programs embed too)
"$here/make_model.sh" "$tool" "$work/model" >"$work/model.log" 2>&1 || { cat "$work/model.log"; exit 1; }
header=$work/kfm_bench_maps.h
{
  echo "/* SSF Gaussian maps of 'kfm build' (bench.sh) */"
  echo "struct kfm_bench_map { const uint32_t* words; std::size_t bytes; };"
  list=""
  for shape in 16:256 64:512 256:4096; do
    d=${shape%:*} D=${shape#*:}
    "$tool" build --method ssf --kernel gaussian --sigma 4 --input-dim "$d" --features "$D" --seed 2 -o "$work/ssf_$d.kfm" >/dev/null
    bytes=$(wc -c <"$work/ssf_$d.kfm")
    echo "alignas(16) static const uint32_t kfm_bench_map_$d[] = {"
    od -A n -v -t x4 -w16 "$work/ssf_$d.kfm" | awk '{ for (i = 1; i <= NF; i++) printf "0x%s,", $i; print "" }'
    echo "};"
    list="$list{kfm_bench_map_$d, $bytes},"
  done
  echo "static const kfm_bench_map kfm_bench_maps[] = {$list};"
} >"$header"

for core in ${KFM_BENCH_CORES:-cortex-m4 cortex-m7 cortex-m55}; do
  for opt in O2 Os; do
    b=$work/$core-$opt
    args=(-DKFM_CORTEX_M_CPU="$core" -DKFM_MODEL_DIR="$work/model" -DKFM_BENCH_DIR="$work" -DCMAKE_BUILD_TYPE=Bench
          -DCMAKE_C_FLAGS_BENCH="-$opt" -DCMAKE_CXX_FLAGS_BENCH="-$opt")
    args+=(-DKFM_CMSIS_DSP_DIR="$cmsis_dsp" -DKFM_CMSIS_CORE_DIR="$cmsis_core")  # empty: no peer (clears a cached one)
    cmake -S "$here" -B "$b" -G Ninja --toolchain "$root/toolchains/cortex-m.cmake" "${args[@]}" >"$b.log" 2>&1 ||
      { cat "$b.log"; exit 1; }
    cmake --build "$b" --target kfm_bench_firmware >>"$b.log" 2>&1 || { tail -30 "$b.log"; exit 1; }
    board=$(sed -n 's/^KFM_CORTEX_M_BOARD:INTERNAL=//p' "$b/CMakeCache.txt")
    timeout 600 qemu-system-arm -M "$board" -icount shift=0 -semihosting -nographic -monitor none -serial none \
      -kernel "$b/kfm_bench_firmware.elf" >"$b/bench.txt" 2>&1
    if grep -q '^FAIL' "$b/bench.txt" || ! grep -q '^bench done' "$b/bench.txt"; then
      cat "$b/bench.txt"; exit 1
    fi
    grep '^bench ' "$b/bench.txt" | grep -v '^bench done' | sed "s/^bench /$core -$opt /"
  done
done | tee "$work/bench_lines.txt"

# ---- one table per core: FFT by n, then the transforms (columns: each table, each -O level)
awk '{ if (($3 == "fft" && $4 != "cmsis-vs-kfm") || $3 == "features") { row = $1 " " $3 " " $5; col = $4 " " $2; val = $6 }
       else if ($3 == "features-error") { row = $1 " features max error"; col = $4 " " $2; val = $5 }
       else if ($3 == "transform") { row = $1 " transform " $5 "->" $6; col = $4 " " $2; val = $7 }
       else next
       if (!(row in seen_row)) { seen_row[row] = 1; rows[++nr] = row }
       if (!(col in seen_col)) { seen_col[col] = 1; cols[++nc] = col }
       v[row SUBSEP col] = val }
     END { printf "%-30s", "core, what"; for (i = 1; i <= nc; i++) printf " %12s", cols[i]; print ""
           for (j = 1; j <= nr; j++) {
             printf "%-30s", rows[j]
             for (i = 1; i <= nc; i++) printf " %12s", ((rows[j] SUBSEP cols[i]) in v) ? v[rows[j] SUBSEP cols[i]] : "-"
             print "" } }' "$work/bench_lines.txt"
