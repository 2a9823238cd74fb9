#!/usr/bin/env bash
# The model and rows the Cortex-M firmware embeds, made with a host kfm (as examples/device/run_example_test.sh
# does): 'kfm synth' data (12 inputs, the label is which of the first three is largest), a 12 -> 256 SSF
# Gaussian map, a fitted three-class model (a ridge head), its C header, 300 held-out rows as a header of
# float bit patterns, and the host's predictions on them.
#   make_model.sh KFM_TOOL OUT_DIR [METHOD INPUT_DIM FEATURES [HEAD_DTYPE]]
# Writes OUT_DIR/kfm_model.h, OUT_DIR/kfm_rows.h and OUT_DIR/host.txt (per row: the label and the scores).
# METHOD INPUT_DIM FEATURES (default: ssf 12 256) choose another Gaussian map for the same task
# (scripts/firmware/cortex-m-size.sh's configurations); HEAD_DTYPE (default f32) is kfm fit's --head-dtype.
set -euo pipefail
tool=$1 m=$2 method=${3:-ssf} d=${4:-12} features=${5:-256} head_dtype=${6:-f32}
mkdir -p "$m"
rm -f "$m/kfm_model.h" "$m/kfm_rows.h" "$m/host.txt"  # no stale outputs when a step fails
npy_payload() { tail -c +$(( $(od -A n -t u2 -j 8 -N 2 "$1") + 11 )) "$1"; }
n=300 rows=300
# labels_npy X.npy Y.npy: which of the first three inputs is largest, as the bytes '1', '2', '3' of a u1 .npy.
labels_npy() {
  local count=$(( $(npy_payload "$1" | wc -c) / (4 * d) ))
  local dict="{'descr': '|u1', 'fortran_order': False, 'shape': ($count,), }"
  local len=$(( (${#dict} + 1 + 10 + 63) / 64 * 64 - 10 ))
  {
    printf '\223NUMPY\001\000'
    printf "\\$(printf %03o $((len & 255)))\\$(printf %03o $((len >> 8)))"
    printf '%-*s\n' $((len - 1)) "$dict"
    npy_payload "$1" | od -A n -v -t f4 -w$((4 * d)) |
      awk '{ c = 1; if ($2 > $c) c = 2; if ($3 > $c) c = 3; printf "%d", c }'
  } >"$2"
}
"$tool" synth --rows $n --dim $d --seed 5 -o "$m/x.npy"
labels_npy "$m/x.npy" "$m/y.npy"
"$tool" synth --rows $rows --dim $d --seed 6 -o "$m/x_test.npy"
"$tool" build --method "$method" --kernel gaussian --sigma 4 --input-dim $d --features $features --seed 2 -o "$m/map.kfm" >/dev/null
"$tool" fit "$m/map.kfm" --x "$m/x.npy" --y "$m/y.npy" --task classification --standardize \
  --head-dtype "$head_dtype" -o "$m/model.kfm" >/dev/null
"$tool" predict "$m/model.kfm" --in "$m/x_test.npy" --out "$m/labels.npy" --scores "$m/scores.npy"
"$tool" export "$m/model.kfm" --c-header "$m/kfm_model.h" --name kfm_model
# The rows as the bit patterns of their floats: the device reads exactly what the host read.
{
  echo "/* $rows rows of 'kfm synth --rows $rows --dim $d --seed 6', float32 bit patterns (make_model.sh) */"
  echo "#define KFM_ROWS $rows"
  echo "static const uint32_t kfm_rows_bits[] = {"
  npy_payload "$m/x_test.npy" | od -A n -v -t x4 -w16 | awk '{ for (i = 1; i <= NF; i++) printf "0x%s,", $i; print "" }'
  echo "};"
} >"$m/kfm_rows.h"
# Host lines "label s0 s1 s2".
paste -d ' ' <(npy_payload "$m/labels.npy" | od -A n -v -t d8 -w8) \
             <(npy_payload "$m/scores.npy" | od -A n -v -t f4 -w12) >"$m/host.txt"
