#!/usr/bin/env bash
# Prints docs/embedding.md's cost table: for every method at a few sizes, the flash a map costs (its .kfm
# file, `file_bytes`) and the RAM a transform needs (`workspace_bytes`, per vector), both read from
# `kfm inspect --json`. Deterministic (fixed seeds), so the test `embedding-table` compares it with the doc.
#   scripts/firmware/embedding-table.sh [KFM_TOOL]      (default: build/native/kfm)
set -euo pipefail
kfm=${1:-build/native/kfm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sizes=("16 256" "64 1024" "256 4096")
methods=(
  "rff gaussian" "rff-phase gaussian" "orf gaussian" "qmc gaussian" "sorf gaussian" "ssf gaussian"
  "quadrature gaussian" "srf polynomial-sphere" "gorf polynomial-sphere" "grff polynomial-sphere"
  "maclaurin polynomial-sphere" "tensorsketch polynomial-sphere"
)
field() { grep -o "\"$1\": [0-9]*" "$2" | head -1 | sed 's/.*: //'; }
kib() { awk -v b="$1" 'BEGIN { printf (b < 10240 ? "%.1f" : "%.0f"), b / 1024 }'; }

header="| method | kernel |" rule="|---|---|"
for s in "${sizes[@]}"; do
  set -- $s
  header+=" d = $1, D = $2: output_dim, flash KiB, workspace KiB |"
  rule+="---|"
done
echo "$header"
echo "$rule"
for entry in "${methods[@]}"; do
  set -- $entry
  method=$1 kernel=$2
  row="| \`$method\` | $kernel |"
  for s in "${sizes[@]}"; do
    set -- $s
    options=()
    [ "$kernel" = gaussian ] || options=(--degree 3 --scale 4)
    "$kfm" build --method "$method" --kernel "$kernel" "${options[@]}" --input-dim "$1" --features "$2" \
      --seed 1 -o "$work/map.kfm" >/dev/null
    "$kfm" inspect "$work/map.kfm" --json >"$work/map.json"
    row+=" $(field output_dim "$work/map.json"), $(kib "$(field file_bytes "$work/map.json")"), $(kib "$(field workspace_bytes "$work/map.json")") |"
  done
  echo "$row"
done
