#!/usr/bin/env bash
# The Cortex-M size and cost table (docs/embedding.md, "Microcontrollers"), checked against committed limits.
# Per core (cortex-m4, -m7, -m55) and per configuration, the smallest firmware (examples/cortex-m/cost_firmware.c:
# open + predict of a three-class Gaussian model with a ridge head from examples/cortex-m/make_model.sh, and
# the map's transform), built with a runtime holding only what the model uses (KFM_PROJECTIONS=<its
# projection>, KFM_NONLINEARITIES=cos_sin; the firmware profile, KFM_FIRMWARE, is on for these builds; the
# Cortex-M55 with its mve table alone) and
# run under qemu-system-arm -icount shift=0:
#   ssf-12-256     SSF 12 -> 256, -Os: the headline firmware, with the targets below
#   ssf-64-1024    SSF 64 -> 1024, -Os
#   ssf-64-1024-int8  the same with the int8 head (kfm fit --head-dtype int8): the flash it saves
#   rff-12-256     a dense map (rff) 12 -> 256, -Os
#   sorf-12-256    a Hadamard map (sorf) 12 -> 256, -Os
#   ssf-64-512-O2  SSF 64 -> 512 at -O2: the transform's instruction count
#   scripts/firmware/cortex-m-size.sh KFM_TOOL [WORK_DIR] [--write-limits]
# Prints the Markdown table of examples/cortex-m/size_report.sh, then each figure against
# scripts/firmware/cortex-m-size.limit (one line per configuration and core: flash, RAM, stack, open, transform and
# predict instructions) and the targets; exits 1 when a figure exceeds its limit by more than 2% (and the
# limits file has a line for every row). --write-limits rewrites the limits file with today's figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tool=$1
work=""
write_limits=0
for arg in "${@:2}"; do
  if [ "$arg" = --write-limits ]; then write_limits=1; else work=$arg; fi
done
if [ -n "$work" ]; then
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
limits=$root/scripts/firmware/cortex-m-size.limit
margin_percent=2

# name method input_dim features projection build_type head_dtype
configurations=(
  "ssf-12-256 ssf 12 256 ssf_fft MinSizeRel f32"
  "ssf-64-1024 ssf 64 1024 ssf_fft MinSizeRel f32"
  "ssf-64-1024-int8 ssf 64 1024 ssf_fft MinSizeRel int8"
  "rff-12-256 rff 12 256 dense MinSizeRel f32"
  "sorf-12-256 sorf 12 256 hadamard MinSizeRel f32"
  "ssf-64-512-O2 ssf 64 512 ssf_fft Release f32"
)
for c in "${configurations[@]}"; do
  read -r name method d features _ _ head_dtype <<<"$c"
  "$root/examples/cortex-m/make_model.sh" "$tool" "$work/model-$name" "$method" "$d" "$features" "$head_dtype" \
    >"$work/model-$name.log" 2>&1 || { cat "$work/model-$name.log"; exit 1; }
done

table=$work/table.md
"$root/examples/cortex-m/size_report.sh" --header >"$table"
for core in cortex-m4 cortex-m7 cortex-m55; do
  for c in "${configurations[@]}"; do
    read -r name _ _ _ projection build_type _ <<<"$c"
    # One build directory per core, projection and build type: the configurations sharing it only rebuild
    # the firmware around their model header.
    b=$work/$core-$projection-$build_type
    # The Cortex-M55 firmware holds its mve table alone (the scalar one would never run there).
    tables=(); [ $core != cortex-m55 ] || tables=(-DKFM_SCALAR_TABLE=OFF)
    cmake -S "$root/examples/cortex-m" -B "$b" -G Ninja --toolchain "$root/toolchains/cortex-m.cmake" \
      -DKFM_CORTEX_M_CPU=$core -DCMAKE_BUILD_TYPE=$build_type -DKFM_MODEL_DIR="$work/model-$name" \
      -DKFM_PROJECTIONS=$projection -DKFM_NONLINEARITIES=cos_sin "${tables[@]}" >"$b.configure.log" 2>&1 ||
      { cat "$b.configure.log"; exit 1; }
    cmake --build "$b" --target kfm_cost_firmware >"$b.build.log" 2>&1 || { tail -30 "$b.build.log"; exit 1; }
    board=$(sed -n 's/^KFM_CORTEX_M_BOARD:INTERNAL=//p' "$b/CMakeCache.txt")
    # Semihosting output goes to QEMU's stderr.
    timeout 120 qemu-system-arm -M "$board" -icount shift=0 -semihosting -nographic -monitor none -serial none \
      -kernel "$b/kfm_cost_firmware.elf" >"$b/cost-$name.txt" 2>&1 || { cat "$b/cost-$name.txt"; exit 1; }
    cp "$b/kfm_cost_firmware.elf.map" "$b/cost-$name.map"
    "$root/examples/cortex-m/size_report.sh" "$name" "$core" "$b/cost-$name.map" "$b/cost-$name.txt" >>"$table"
  done
done
cat "$table"

# The figures of a table row, space-separated: configuration core flash ram stack open transform predict.
figures() {
  awk -F'|' 'NR > 2 { gsub(/ /, "", $2); gsub(/ /, "", $3); split($4, f, "="); split($5, r, "(")
                      printf "%s %s %d %d %d %d %d %d\n", $2, $3, f[1], r[1], $6, $7, $8, $9 }' "$table"
}

if [ $write_limits -eq 1 ]; then
  {
    echo "# Limits of scripts/firmware/cortex-m-size.sh (stage 7 of scripts/test-all.sh fails when a figure exceeds its"
    echo "# limit by more than ${margin_percent}%). Regenerate after an intended change: scripts/firmware/cortex-m-size.sh KFM_TOOL [WORK_DIR] --write-limits"
    echo "# configuration core flash_bytes ram_bytes stack_bytes open_instructions transform_instructions predict_instructions"
    figures
  } >"$limits"
  echo "cortex-m-size: wrote $limits"
fi

# Each figure against its limit, and the targets (reported, not enforced).
status=0
while read -r name core flash ram stack open transform predict; do
  line=$(awk -v n="$name" -v c="$core" '$1 == n && $2 == c' "$limits")
  if [ -z "$line" ]; then
    echo "cortex-m-size: $name on $core: no line in $limits"; status=1; continue
  fi
  read -r _ _ l_flash l_ram l_stack l_open l_transform l_predict <<<"$line"
  for pair in "flash $flash $l_flash" "RAM $ram $l_ram" "stack $stack $l_stack" "open $open $l_open" \
              "transform $transform $l_transform" "predict $predict $l_predict"; do
    read -r what value limit <<<"$pair"
    if [ $((value * 100)) -gt $((limit * (100 + margin_percent))) ]; then
      echo "cortex-m-size: $name on $core: $what $value exceeds the limit $limit by more than ${margin_percent}%"
      status=1
    fi
  done
done < <(figures)
[ $status -eq 0 ] && echo "cortex-m-size: every figure within ${margin_percent}% of scripts/firmware/cortex-m-size.limit"

target() {  # target WHAT VALUE LIMIT
  local verdict=met
  [ "$2" -le "$3" ] || verdict=missed
  echo "cortex-m-size: target $1: $2 (limit $3, $(awk -v v="$2" -v l="$3" 'BEGIN { printf "%.2f", v / l }') of it): $verdict"
}
while read -r name core flash ram stack open transform predict; do
  if [ "$core" = cortex-m4 ] && [ "$name" = ssf-12-256 ]; then
    target "M4F ssf-12-256 -Os flash" "$flash" 24576
    target "M4F ssf-12-256 RAM + stack" "$((ram + stack))" 4096
    target "M4F ssf-12-256 open instructions" "$open" 100000
  fi
  if [ "$core" = cortex-m4 ] && [ "$name" = ssf-64-512-O2 ]; then
    target "M4F transform 64 -> 512 -O2 instructions" "$transform" 30000
  fi
done < <(figures)
exit $status
