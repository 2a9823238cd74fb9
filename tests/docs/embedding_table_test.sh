#!/usr/bin/env bash
# The `embedding-table` test: docs/embedding.md's cost table is exactly what scripts/firmware/embedding-table.sh
# prints with this build's kfm, so a change to a method's file size or workspace shows up here.
#   embedding_table_test.sh SOURCE_DIR KFM_TOOL
set -euo pipefail
src=$1 tool=$2
doc=$src/docs/embedding.md
begin='<!-- begin: scripts/firmware/embedding-table.sh -->' end='<!-- end: scripts/firmware/embedding-table.sh -->'
documented=$(sed -n "\\|$begin|,\\|$end|p" "$doc" | sed '1d;$d')
[ -n "$documented" ] || { echo "embedding-table: no table between the markers in $doc" >&2; exit 1; }
generated=$("$src/scripts/firmware/embedding-table.sh" "$tool")
if [ "$documented" != "$generated" ]; then
  echo "embedding-table: $doc is out of date; regenerate it with scripts/firmware/embedding-table.sh:" >&2
  diff <(echo "$documented") <(echo "$generated") >&2 || true
  exit 1
fi
echo "embedding-table: docs/embedding.md matches scripts/firmware/embedding-table.sh ($(wc -l <<<"$generated") lines)"
