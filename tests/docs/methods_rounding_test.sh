#!/usr/bin/env bash
# The `docs-methods-rounding` test: docs/methods.md's "How D is rounded" table gives, per row, the output
# dimension `kfm build` makes of the requests D = 5 and D = 100 at d = 10 (its last two cells). Every
# method of each row is built with this build's kfm and its output_dim compared with the row. An empty cell
# means kfm refuses that request (its build must fail with a message, and write no file).
#   methods_rounding_test.sh SOURCE_DIR KFM_TOOL
set -euo pipefail
src=$1 kfm=$2
page=$src/docs/methods.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
poly='--kernel polynomial-sphere --degree 2 --scale 3'
arccos='--kernel arccos --order 1'
"$kfm" synth --rows 200 --dim 10 --seed 1 -o "$work/rows.npy" >/dev/null
fitted="--kernel gaussian --sigma 1 --data $work/rows.npy"  # a map fitted to training rows
# row start (exact text of the row's first cell) | method and kernel options, one build per entry
cases=(
  '`rff`, `orf` (cos/sin pairs|rff --kernel gaussian;orf --kernel gaussian;rff '"$arccos"';orf '"$arccos"
  '`rff-phase`; any arc-cosine map|rff-phase --kernel gaussian;rff '"$arccos"' --arccos-pairs plain;qmc '"$arccos"' --arccos-pairs plain'
  '`qmc`, `sorf`, `fastfood`, `gq` (cos/sin pairs)|qmc --kernel gaussian;sorf --kernel gaussian;fastfood --kernel gaussian;gq --kernel gaussian'
  '`qmc`, `sorf` (arc-cosine reflected pairs)|qmc '"$arccos"';sorf '"$arccos"
  '`ssf`|ssf --kernel gaussian;ssf '"$arccos"
  '`quadrature`|quadrature --kernel gaussian'
  '`srf`, `maclaurin`, `tensor-srht`|srf '"$poly"';maclaurin '"$poly"';tensor-srht '"$poly"
  '`gorf`, `grff`|gorf '"$poly"';grff '"$poly"
  '`tensorsketch`|tensorsketch '"$poly"
  '`ctr-srht`|ctr-srht '"$poly"
  '`maclaurin-opt`|maclaurin-opt '"$fitted"
)
failures=0 checked=0
for c in "${cases[@]}"; do
  row_start=${c%%|*} builds=${c#*|}
  row=$(grep -F -- "| $row_start" "$page" | head -n 1)
  [ -n "$row" ] || { echo "methods-rounding: docs/methods.md has no row starting with \"$row_start\"" >&2; exit 1; }
  expected=$(awk -F'|' '{ for (i = NF - 2; i < NF; ++i) printf "%s%s", ($i ~ /[0-9]/ ? $i + 0 : "refused"), (i < NF - 1 ? " " : "") }' <<<"$row")
  IFS=';' read -r -a list <<<"$builds"
  for b in "${list[@]}"; do
    read -r method options <<<"$b"
    got=""
    for D in 5 100; do
      rm -f "$work/m.kfm"
      # shellcheck disable=SC2086  # options are words
      if line=$("$kfm" build --method "$method" $options --input-dim 10 --features "$D" -o "$work/m.kfm" 2>"$work/err"); then
        got+="$(sed -E 's/.*output_dim ([0-9]+).*/\1/' <<<"$line") "
      elif [ -s "$work/err" ] && [ ! -e "$work/m.kfm" ]; then
        got+="refused "
      else
        echo "methods-rounding: kfm build --method $method $options --features $D failed without a message or left a file" >&2
        exit 1
      fi
    done
    checked=$((checked + 1))
    if [ "${got% }" != "$expected" ]; then
      echo "methods-rounding: $method $options: kfm gives output_dim $got for D = 5, 100; docs/methods.md says $expected" >&2
      failures=$((failures + 1))
    fi
  done
done
[ "$failures" -eq 0 ] || exit 1
echo "methods-rounding: $checked builds match docs/methods.md's \"How D is rounded\" table"
