#!/usr/bin/env bash
# The Cortex-M stage: kfm's runtime on bare-metal Cortex-M4F, M7 and M55 under qemu-system-arm.
#   run_cortex_m_test.sh KFM_TOOL [WORK_DIR]
# KFM_TOOL is a host kfm. make_model.sh fits a 12 -> 256 SSF Gaussian three-class model on 'kfm synth'
# data, exports its C header and writes 300 held-out rows as a header; then per core it builds the
# runtime with toolchains/cortex-m.cmake and the programs of this directory (build directories per core,
# under WORK_DIR: default a temporary directory), and runs two of them on the core's QEMU board with
# semihosting:
#   kfm_predict_firmware  with the firmware profile (KFM_FIRMWARE, the M-profile default), for the model and
#                         again for the same model with the int8 head: labels identical
#                         to the host's 'kfm predict' on the same rows, scores within 1e-5 relative to
#                         max(|score|, 1), kfm_predict_batch bit for bit equal to kfm_predict, and the ISA
#                         the runtime chose is the core's: mve on the Cortex-M55 (MVE-F), scalar on the M4F
#                         and M7
#   kfm_kernel_check      built without the profile (-DKFM_FIRMWARE=OFF, so the tables have the batch
#                         kernels too): every kernel of every table the build holds (mve and scalar on the
#                         M55) against its plain reference, no FAIL line
# Each core's lines name the table that ran ("cortex-m: cortex-m55: predict ran on: mve", and for the
# kernel check "isa mve" and "tables checked: scalar mve").
# It also checks that configuring for an M-profile core with NEON flags, or without the scalar table (except
# on the Cortex-M55, whose mve table may run alone), and the firmware profile in a build that is not
# runtime-only, fail. Prints one line per check and exits
# non-zero when any fails.
# Needs gcc-arm-none-eabi, libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-dev, qemu-system-arm
# (scripts/ci/install-deps.sh), CMake and Ninja, coreutils and awk.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tool=$1
if [ -n "${2:-}" ]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
toolchain=$root/toolchains/cortex-m.cmake
qemu_timeout=${KFM_CORTEX_M_QEMU_TIMEOUT:-120}
failures=0
check() {  # check NAME STATUS: one line per check
  if [ "$2" -eq 0 ]; then echo "cortex-m: $1: ok"; else echo "cortex-m: $1: FAILED"; failures=$((failures + 1)); fi
}

# ---- the model, the rows and the host's predictions (make_model.sh); the same model with the int8 head
m=$work/model m8=$work/model-int8
rows=300
"$here/make_model.sh" "$tool" "$m" >"$work/model.log" 2>&1 &&
  "$here/make_model.sh" "$tool" "$m8" ssf 12 256 int8 >>"$work/model.log" 2>&1
status=$?
[ $status -eq 0 ] || cat "$work/model.log"
check "model (host kfm fit, predict, export; f32 and int8 heads)" $status

# run_and_compare CORE BUILD_DIR MODEL_DIR WHAT: kfm_predict_firmware of BUILD_DIR on the core's board against
# the host's predictions in MODEL_DIR/host.txt (labels identical, scores within 1e-5 relative), the ISA the
# runtime chose and kfm_predict_batch's bits; returns non-zero on any difference.
run_and_compare() {
  local core=$1 b=$2 model=$3 what=$4 status=0
  local board
  board=$(sed -n 's/^KFM_CORTEX_M_BOARD:INTERNAL=//p' "$b/CMakeCache.txt")
  timeout "$qemu_timeout" qemu-system-arm -M "$board" -semihosting -nographic -monitor none -serial none \
    -kernel "$b/kfm_predict_firmware.elf" >"$b/device.txt" 2>&1
  status=$?
  if [ $status -ne 0 ]; then tail -5 "$b/device.txt"; echo "cortex-m: $core: kfm_predict_firmware exited with $status"; fi
  local expected_isa=scalar; [ $core = cortex-m55 ] && expected_isa=mve
  echo "cortex-m: $core$what: predict ran on: $(sed -n 's/^isa //p' "$b/device.txt")"
  grep -qx "isa $expected_isa" "$b/device.txt" || { echo "cortex-m: $core: the runtime did not choose $expected_isa"; status=1; }
  grep -qx "batch identical" "$b/device.txt" || { echo "cortex-m: $core: kfm_predict_batch differs from kfm_predict"; status=1; }
  grep -v -e '^isa ' -e '^batch identical$' "$b/device.txt" >"$b/device_rows.txt"
  awk -v core="$core$what" -v expected=$rows 'NR == FNR { host[FNR] = $0; next }
       { split(host[FNR], h, " "); count++
         if ($1 != h[1]) { printf "cortex-m: %s row %d: device label %s, host %s\n", core, FNR, $1, h[1]; bad++ }
         for (j = 2; j <= NF; j++) {
           scale = h[j] < 0 ? -h[j] : h[j]; if (scale < 1) scale = 1
           diff = $j - h[j]; if (diff < 0) diff = -diff
           if (diff > 1e-5 * scale) { printf "cortex-m: %s row %d score %d: device %s, host %s\n", core, FNR, j - 1, $j, h[j]; bad++ }
           if (diff / scale > worst) worst = diff / scale } }
       END { if (count != expected) { printf "cortex-m: %s: the device printed %d rows, expected %d\n", core, count, expected; exit 1 }
             printf "cortex-m: %s: %d rows, labels identical, largest relative score difference %.3g\n", core, count, worst
             exit bad > 0 }' "$model/host.txt" "$b/device_rows.txt" || status=1
  return $status
}

# ---- configure-time refusals of NEON on M-profile
for bad in "-DCMAKE_CXX_FLAGS=-mcpu=cortex-m4 -mfpu=neon -mfloat-abi=hard" -DKFM_SCALAR_TABLE=OFF; do
  rm -rf "$work/refuse"
  if [ "$bad" = -DKFM_SCALAR_TABLE=OFF ]; then args=(--toolchain "$toolchain" "$bad")
  else
    # A plain bare-metal toolchain (CMAKE_SYSTEM_PROCESSOR=arm, as a user would write it) with NEON flags.
    printf '%s\n' 'set(CMAKE_SYSTEM_NAME Generic)' 'set(CMAKE_SYSTEM_PROCESSOR arm)' \
      'set(CMAKE_CXX_COMPILER arm-none-eabi-g++)' 'set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)' >"$work/plain.cmake"
    args=(--toolchain "$work/plain.cmake" -DKFM_RUNTIME_ONLY=ON "$bad")
  fi
  if cmake -S "$root" -B "$work/refuse" -G Ninja "${args[@]}" >"$work/refuse.log" 2>&1; then
    echo "cortex-m: configure with $bad succeeded"; check "NEON refused at configure time ($bad)" 1
  else
    grep -q "M-profile" "$work/refuse.log"; check "NEON refused at configure time ($bad)" $?
  fi
done
rm -rf "$work/refuse"
# The firmware profile leaves out the batch kernels the tests and the tool use.
if cmake -S "$root" -B "$work/refuse" -G Ninja -DKFM_FIRMWARE=ON -DKFM_BUILD_PYTHON=OFF >"$work/refuse.log" 2>&1; then
  echo "cortex-m: configure with -DKFM_FIRMWARE=ON (full build) succeeded"; check "KFM_FIRMWARE=ON refused without KFM_RUNTIME_ONLY" 1
else
  grep -q "KFM_FIRMWARE=ON needs -DKFM_RUNTIME_ONLY=ON" "$work/refuse.log"; check "KFM_FIRMWARE=ON refused without KFM_RUNTIME_ONLY" $?
fi
rm -rf "$work/refuse"
# ---- the Cortex-M55 runs its mve table: the scalar one may be left out there (and only there)
rm -rf "$work/mve-only"
cmake -S "$root" -B "$work/mve-only" -G Ninja --toolchain "$toolchain" -DKFM_CORTEX_M_CPU=cortex-m55 \
  -DKFM_SCALAR_TABLE=OFF >"$work/mve-only.log" 2>&1 && grep -q "kernels built for: mve$" "$work/mve-only.log"
check "cortex-m55 configures with the mve table alone (-DKFM_SCALAR_TABLE=OFF)" $?
rm -rf "$work/mve-only"

# ---- per core: build, run under QEMU, compare
for core in cortex-m4 cortex-m7 cortex-m55; do
  b=$work/$core
  start=$(date +%s)
  if ! cmake -S "$here" -B "$b" -G Ninja --toolchain "$toolchain" -DKFM_CORTEX_M_CPU=$core \
         -DCMAKE_BUILD_TYPE=MinSizeRel -DKFM_MODEL_DIR="$m" >"$b.configure.log" 2>&1 ||
     ! cmake -S "$here" -B "$b-full" -G Ninja --toolchain "$toolchain" -DKFM_CORTEX_M_CPU=$core \
         -DCMAKE_BUILD_TYPE=MinSizeRel -DKFM_MODEL_DIR="$m" -DKFM_FIRMWARE=OFF >"$b-full.configure.log" 2>&1; then
    cat "$b.configure.log" "$b-full.configure.log"; check "$core build" 1; continue
  fi
  if ! grep -q "^KFM_FIRMWARE:BOOL=ON" "$b/CMakeCache.txt"; then
    echo "cortex-m: $core: the firmware profile is not the M-profile default"; check "$core build" 1; continue
  fi
  if ! cmake --build "$b" --target kfm_predict_firmware >"$b.build.log" 2>&1 ||
     ! cmake --build "$b-full" --target kfm_kernel_check >"$b-full.build.log" 2>&1; then
    tail -40 "$b.build.log" "$b-full.build.log"; check "$core build" 1; continue
  fi
  board=$(sed -n 's/^KFM_CORTEX_M_BOARD:INTERNAL=//p' "$b/CMakeCache.txt")
  run() { timeout "$qemu_timeout" qemu-system-arm -M "$board" -semihosting -nographic -monitor none -serial none \
            -kernel "$1.elf"; }
  run_and_compare $core "$b" "$m" ""
  check "$core predict on $board against the host" $?
  # The same firmware around the int8-head model (the build directory reconfigured: only the firmware rebuilds).
  if cmake -S "$here" -B "$b" -DKFM_MODEL_DIR="$m8" >"$b.configure-int8.log" 2>&1 &&
     cmake --build "$b" --target kfm_predict_firmware >"$b.build-int8.log" 2>&1; then
    run_and_compare $core "$b" "$m8" " int8 head"
    check "$core predict with the int8 head on $board against the host" $?
  else
    tail -40 "$b.configure-int8.log" "$b.build-int8.log"; check "$core predict with the int8 head on $board against the host" 1
  fi
  run "$b-full/kfm_kernel_check" >"$b/kernels.txt" 2>&1
  status=$?
  grep -E '^(FAIL|kernels:|isa )' "$b/kernels.txt" | sed "s/^/cortex-m: $core: kernel check: /"
  grep -E '^[a-z0-9]+ [a-z_]+: ' "$b/kernels.txt" | awk '{ tables[$1] = 1 } END { for (t in tables) if (t != "registry") n = n " " t; print "tables checked:" n }' |
    sed "s/^/cortex-m: $core: /"
  if [ $status -ne 0 ] || grep -q '^FAIL' "$b/kernels.txt" || ! grep -q '^kernels: .* 0 failed' "$b/kernels.txt"; then
    tail -5 "$b/kernels.txt"; status=1
  fi
  check "$core kernels on $board" $status
  echo "cortex-m: $core: $(( $(date +%s) - start )) s"
done

echo "cortex-m: $failures failed"
[ $failures -eq 0 ]
