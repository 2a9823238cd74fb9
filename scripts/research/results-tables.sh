#!/usr/bin/env bash
# Regenerates the result tables of docs/results-*.md in place: each page's generators (the repro suite's
# skipped table cases) print blocks between `<!-- begin: NAME -->` and `<!-- end: NAME -->` lines, and every
# block replaces the lines between the same two markers in the page; the prose around them is left alone.
# The tests in tests/docs (ctest label docs) check a cheap subset of the figures against this build.
#   scripts/research/results-tables.sh [--quick] [--build DIR] [PAGE...]
#     PAGE     docs/results-quadrature.md, docs/results-ssf.md, docs/results-poly.md (its SRF table;
#              default: all three)
#     --quick  fewer runs per cell (5; the SRF table 3) for a trial; the tables say how many runs they used
#     --build  the build directory holding tests/kfm_test_repro (default: build/native)
# Data: KFM_DATA_DIR or the default the tests were built with (README.md). Long: the quadrature page takes
# about an hour of CPU, mostly USPS; run it nice'd in the background.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/native quick=0 pages=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --build) build=${2:?--build needs a directory}; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "results-tables: unknown option $1" >&2; exit 2 ;;
    *) pages+=("$1") ;;
  esac
  shift
done
known=(docs/results-quadrature.md docs/results-ssf.md docs/results-poly.md)
[ ${#pages[@]} -gt 0 ] || pages=("${known[@]}")
repro=$build/tests/kfm_test_repro
[ -x "$repro" ] || { echo "results-tables: $repro not found (cmake --build $build --target kfm_test_repro)" >&2; exit 2; }
if [ $quick = 1 ]; then export KFM_TABLE_RUNS=5 KFM_REPRO_RUNS=3; fi

# The table cases of each page.
generators() {
  case $1 in
    docs/results-quadrature.md) echo "quadrature n = 1 table"; echo "quadrature results table" ;;
    docs/results-ssf.md) echo "ssf results table" ;;
    docs/results-poly.md) echo "srf repro table*" ;;
    *) echo "results-tables: no generator for $1 (known: ${known[*]})" >&2
       return 1 ;;
  esac
}
for page in "${pages[@]}"; do generators "$page" >/dev/null; done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for page in "${pages[@]}"; do
  : >"$work/blocks"
  while IFS= read -r case_name; do
    echo "results-tables: $page: running \"$case_name\"" >&2
    "$repro" -tc="$case_name" --no-skip | tee -a "$work/blocks" | grep --line-buffered -v '^<!--' >&2
  done < <(generators "$page")
  /usr/bin/python3 - "$page" "$work/blocks" <<'PY'
import os, re, sys
page, blocks_file = sys.argv[1], sys.argv[2]
marker = re.compile(r'^<!-- (begin|end): (.+) -->$')
blocks, name, lines = {}, None, []
for line in open(blocks_file, encoding='utf-8').read().splitlines():
    m = marker.match(line)
    if m and m.group(1) == 'begin':
        name, lines = m.group(2), []
    elif m and name is not None and m.group(2) == name:
        blocks[name], name = lines, None
    elif name is not None:
        lines.append(line)
if not blocks:
    sys.exit(f'results-tables: {page}: the generators printed no table (data sets absent?)')
text = open(page, encoding='utf-8').read().splitlines()
for name, body in blocks.items():
    begin, end = f'<!-- begin: {name} -->', f'<!-- end: {name} -->'
    if begin not in text or end not in text:
        sys.exit(f'results-tables: {page} has no "{begin}" ... "{end}" for a generated table')
    i, j = text.index(begin), text.index(end)
    text[i + 1:j] = body
tmp = page + '.tmp'
with open(tmp, 'w', encoding='utf-8') as f:
    f.write('\n'.join(text) + '\n')
os.replace(tmp, page)
print(f'results-tables: {page}: {len(blocks)} table(s) rewritten: {", ".join(blocks)}', file=sys.stderr)
PY
done
