#!/usr/bin/env bash
# The `docs-references` test: every reference to a section of a documentation page written as
#   docs/PAGE.md, "Heading"        (also with the page in backquotes, or without the comma)
# in the sources, scripts, tests and docs names an existing page with a heading that begins with that text,
# and docs/index.md links every page of docs/ (docs/benchmarks-history.md excepted: history, not reference).
#   section_references_test.sh SOURCE_DIR
set -euo pipefail
src=$1
cd "$src"
failures=0 checked=0
while IFS= read -r hit; do
  where=${hit%%:docs/*}
  ref=${hit#"$where":}
  page=$(sed -E 's/^(docs\/[a-z0-9-]+\.md).*/\1/' <<<"$ref")
  heading=$(sed -E 's/^[^"]*"([^"]+)"$/\1/' <<<"$ref")
  checked=$((checked + 1))
  if [ ! -f "$page" ]; then
    echo "docs-references: $where: $page does not exist" >&2
    failures=$((failures + 1))
  elif ! sed -nE 's/^#+ //p' "$page" | awk -v h="$heading" 'index($0, h) == 1 { found = 1 } END { exit !found }'; then
    echo "docs-references: $where: $page has no heading beginning with \"$heading\"" >&2
    failures=$((failures + 1))
  fi
done < <(grep -rnoE --exclude-dir=.git --exclude-dir=build 'docs/[a-z0-9-]+\.md`?,? "[^"]+"' \
           README.md docs src include python tests bench scripts examples platforms cmake 2>/dev/null |
         sed -E 's/^([^:]+:[0-9]+):/\1:/')
for page in docs/*.md; do
  name=${page#docs/}
  [ "$name" = index.md ] || [ "$name" = benchmarks-history.md ] && continue
  if ! grep -qF "]($name)" docs/index.md; then
    echo "docs-references: docs/index.md does not link $name" >&2
    failures=$((failures + 1))
  fi
done
grep -qF 'docs/index.md' README.md || { echo "docs-references: README.md does not link docs/index.md" >&2; failures=$((failures + 1)); }
[ "$checked" -gt 0 ] || { echo "docs-references: no section reference found (is SOURCE_DIR the checkout?)" >&2; exit 1; }
[ "$failures" -eq 0 ] || exit 1
echo "docs-references: $checked section references resolve; docs/index.md links every page"
