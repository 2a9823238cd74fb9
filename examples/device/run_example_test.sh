#!/usr/bin/env bash
# The `example` test, and the end of scripts/demo.sh: data from 'kfm synth', a map, a fitted 3-class
# model (scored on held-out rows), its exported header, the example built against this build's installed
# runtime (cross-compiled and run under EMULATOR in a cross build, with a host kfm tool), and its
# predictions compared with the tool's 'kfm predict': labels identical, scores within 1e-4 relative to
# max(|score|, 1) (scores near zero are compared absolutely).
# Needs only the tool, CMake, a C compiler and coreutils/awk (no Python).
#   run_example_test.sh BUILD_DIR KFM_TOOL [TOOLCHAIN_FILE [EMULATOR...]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 tool=$2
toolchain=${3:-}
emulator=("${@:4}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }

# The float32 payload of a .npy file written by kfm (header length at bytes 8-9).
npy_payload() { tail -c +$(( $(od -A n -t u2 -j 8 -N 2 "$1") + 11 )) "$1"; }

d=12 n=300
# Three classes: which of the first three inputs is largest (kfm synth --labels).
"$tool" synth --rows $n --dim $d --seed 5 -o "$work/x.npy" --labels "$work/y.npy"
npy_payload "$work/x.npy" >"$work/x.f32"
"$tool" synth --rows $n --dim $d --seed 6 -o "$work/x_test.npy" --labels "$work/y_test.npy"

"$tool" build --method ssf --kernel gaussian --sigma 4 --input-dim $d --features 256 --seed 2 -o "$work/map.kfm" >/dev/null
"$tool" fit "$work/map.kfm" --x "$work/x.npy" --y "$work/y.npy" --task classification --standardize -o "$work/model.kfm"
echo "held-out $("$tool" score "$work/model.kfm" --x "$work/x_test.npy" --y "$work/y_test.npy")"
"$tool" predict "$work/model.kfm" --in "$work/x.npy" --out "$work/labels.npy" --scores "$work/scores.npy"
mkdir -p "$work/include"
"$tool" export "$work/model.kfm" --c-header "$work/include/kfm_model.h" --name kfm_model

cmake_args=(-S "$here" -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix"
            -DKFM_MODEL_DIR="$work/include")
[ -z "$toolchain" ] || cmake_args+=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
cmake "${cmake_args[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
${emulator[@]+"${emulator[@]}"} "$work/cmake/device_predict" "$work/x.f32" >"$work/device.txt"

# Host lines "label s0 s1 s2" from the tool's int64 labels and float32 scores.
paste -d ' ' <(npy_payload "$work/labels.npy" | od -A n -v -t d8 -w8) \
             <(npy_payload "$work/scores.npy" | od -A n -v -t f4 -w12) >"$work/host.txt"
awk 'NR == FNR { host[FNR] = $0; next }
     { split(host[FNR], h, " "); rows++
       if ($1 != h[1]) { printf "row %d: device label %s, host %s\n", FNR, $1, h[1]; bad++ }
       for (j = 2; j <= NF; j++) {
         scale = h[j] < 0 ? -h[j] : h[j]; if (scale < 1) scale = 1
         diff = $j - h[j]; if (diff < 0) diff = -diff
         if (diff > 1e-4 * scale) { printf "row %d score %d: device %s, host %s\n", FNR, j - 1, $j, h[j]; bad++ }
         if (diff / scale > worst) worst = diff / scale }
     }
     END { if (rows != '"$n"') { print "device printed " rows " rows, expected '"$n"'"; exit 1 }
           printf "example: %d rows, labels identical, largest relative score difference %.3g\n", rows, worst
           exit bad > 0 }' "$work/host.txt" "$work/device.txt"
