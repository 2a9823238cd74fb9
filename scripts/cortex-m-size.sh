#!/usr/bin/env bash
# The Cortex-M size and cost table (docs/embedding.md, "Microcontrollers"): per core, the smallest firmware
# (examples/cortex-m/cost_firmware.c: open + one predict of the 12 -> 256 SSF Gaussian three-class model of
# examples/cortex-m/make_model.sh), built -Os with a runtime holding only what that model uses
# (KFM_PROJECTIONS=ssf_fft, KFM_NONLINEARITIES=cos_sin), and run under qemu-system-arm -icount shift=0.
#   scripts/cortex-m-size.sh KFM_TOOL [WORK_DIR]
# Prints the Markdown table of examples/cortex-m/size_report.sh: flash split into kfm, libc/libm, the model
# and the rest; RAM (.data + .bss, the workspace among it); the stack's high-water mark; instructions per
# open and per predict (SysTick under -icount, calibrated by a loop of known length).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=$1
if [ -n "${2:-}" ]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
"$root/examples/cortex-m/make_model.sh" "$tool" "$work/model" >"$work/model.log" 2>&1 || { cat "$work/model.log"; exit 1; }
"$root/examples/cortex-m/size_report.sh" --header
for core in cortex-m4 cortex-m7 cortex-m55; do
  b=$work/$core
  cmake -S "$root/examples/cortex-m" -B "$b" -G Ninja --toolchain "$root/toolchains/cortex-m.cmake" \
    -DKFM_CORTEX_M_CPU=$core -DCMAKE_BUILD_TYPE=MinSizeRel -DKFM_MODEL_DIR="$work/model" \
    -DKFM_PROJECTIONS=ssf_fft -DKFM_NONLINEARITIES=cos_sin >"$b.configure.log" 2>&1 || { cat "$b.configure.log"; exit 1; }
  cmake --build "$b" --target kfm_cost_firmware >"$b.build.log" 2>&1 || { tail -30 "$b.build.log"; exit 1; }
  board=$(sed -n 's/^KFM_CORTEX_M_BOARD:INTERNAL=//p' "$b/CMakeCache.txt")
  # Semihosting output goes to QEMU's stderr.
  timeout 120 qemu-system-arm -M "$board" -icount shift=0 -semihosting -nographic -monitor none -serial none \
    -kernel "$b/kfm_cost_firmware.elf" >"$b/cost.txt" 2>&1 || { cat "$b/cost.txt"; exit 1; }
  "$root/examples/cortex-m/size_report.sh" "$core" "$b/kfm_cost_firmware.elf.map" "$b/cost.txt"
done
