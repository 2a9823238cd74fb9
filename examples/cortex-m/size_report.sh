#!/usr/bin/env bash
# One row of the Cortex-M size and cost table: flash and RAM of a firmware from its link map, split by
# origin, and its instruction counts from the cost firmware's output.
#   size_report.sh CONFIGURATION CORE MAP_FILE COST_OUTPUT
# MAP_FILE is the -Map output of kfm_cost_firmware (open + one predict); COST_OUTPUT what it printed under
# qemu-system-arm -icount shift=0 (SysTick counts, converted here: instructions = ticks x the calibration
# loop's instructions / its ticks, per call). Flash is every allocated input section outside RAM (.text,
# .rodata, .ARM.exidx, .init_array, and .data's initial values), split into kfm (libkfm_runtime.a),
# libc/libm (newlib, libm, libgcc), the model (the kfm_model array of the exported header) and the rest
# (start-up, semihosting output, main); RAM is .data + .bss (the workspace included) and, beside it, the
# stack's measured high-water mark. Prints a Markdown table row; the header is `size_report.sh --header`.
set -euo pipefail
if [ "${1:-}" = --header ]; then
  echo "| configuration | core | flash B: total = kfm + libc/libm + model + start-up/main | RAM B: .data + .bss (workspace) | stack B | open instructions | transform instructions | predict instructions |"
  echo "|---|---|---|---|---|---|---|---|"
  exit 0
fi
config=$1 core=$2 map=$3 cost=$4
value() { sed -n "s/^cost: $1 //p" "$cost"; }
# instructions TICKS CALLS: per call, rounded.
instructions() { awk -v t="$1" -v n="$2" -v ci="$(value calibration_instructions)" -v ct="$(value calibration_ticks)" \
                   'BEGIN { printf "%d", t * ci / ct / n + 0.5 }'; }
awk -v config="$config" -v core="$core" -v open="$(instructions "$(value open_ticks)" 1)" \
    -v transform="$(instructions "$(value transform_ticks)" "$(value calls)")" \
    -v predict="$(instructions "$(value predict_ticks)" "$(value calls)")" \
    -v stack="$(value stack_bytes)" -v workspace="$(value workspace_bytes)" '
  function hex(s,   i, n) {
    n = 0
    for (i = 3; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
    return n
  }
  # Bytes of an input section at address, not counting what overlaps the previous one (the map lists
  # merged string sections at their original sizes, overlapping).
  function record(section, address, size, file,   start, stop, bytes, origin) {
    start = hex(address)
    stop = start + hex(size)
    if (start < end) start = end
    if (stop <= start || out !~ /^\.(text|ARM\.exidx|init_array|data|bss)$/) return
    end = stop
    bytes = stop - start
    if (file ~ /libkfm_runtime\.a/) origin = "kfm"
    else if (file ~ /lib(c|c_nano|g|g_nano|m|gcc|nosys)\.a/) origin = "libc"
    else if (section ~ /^\.rodata\.kfm_model$/) origin = "model"
    else origin = "app"
    if (out == ".bss" || out == ".data") ram += bytes
    if (out != ".bss") { flash[origin] += bytes; total += bytes }
  }
  /^\.[A-Za-z_.]+/ { out = $1; pending = ""; end = 0; next }  # an output section
  out == "" { next }
  /^ \*fill\*/ { if (NF >= 3) record("fill", $2, $3, ""); next }
  /^ \.[^ ]+/ {                                           # an input section: name [address size file]
    if (NF >= 4 && $2 ~ /^0x/) record($1, $2, $3, $4)
    else if (NF == 1) pending = $1
    next
  }
  pending != "" && /^ +0x/ { if (NF >= 3) record(pending, $1, $2, $3); pending = ""; next }
  { pending = "" }
  END {
    printf "| %s | %s | %d = %d + %d + %d + %d | %d (%d) | %d | %d | %d | %d |\n", config, core, total, flash["kfm"],
           flash["libc"], flash["model"], flash["app"] + flash["fill"], ram, workspace, stack, open, transform, predict
  }' "$map"
