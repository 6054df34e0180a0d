#!/usr/bin/env bash
# Moves the tests so that tests/ mirrors the source tree (issue 13, point 9; the rules are in tests/README.md):
# a test of src/<path>.ts is tests/<path>.test.ts (a second file about the same module adds an aspect:
# tests/<path>.<aspect>.test.ts), a test of server/<file>.ts is tests/server/<file>.test.ts, and a test that
# only talks to the local server over a socket is tests/server/<topic>.test.ts.
#
#   bash scripts/mirror-tests.sh     # run once on the merged tree, then npm run typecheck and the moved tests
#
# Idempotent: a move whose source is gone is skipped, and every rewrite below only matches the old text.
# Every move keeps the test at the same depth (tests/<folder>/<file>), so imports of ../../src, ../../server and
# ../helpers stay valid; the few paths that do change are rewritten after the moves.
set -euo pipefail
cd "$(dirname "$0")/.."

# old path -> new path
MOVES=(
  # Over a socket against the local server (server/main.ts): tests/server, beside http-holes.test.ts.
  "tests/api/agent-readability.test.ts tests/server/agent-readability.test.ts"
  "tests/api/agent-schemas.test.ts tests/server/agent-schemas.test.ts"
  "tests/api/discovery.test.ts tests/server/discovery.test.ts"
  "tests/api/leads.test.ts tests/server/leads.test.ts"
  "tests/api/rate-limit.test.ts tests/server/rate-limit.test.ts"
  "tests/api/read.test.ts tests/server/read.test.ts"
  # The Vercel build output of server/vercel-build.ts.
  "tests/vercel/output.test.ts tests/server/vercel-build.test.ts"
  # Named after the module they test.
  "tests/contract/routes.test.ts tests/operations/index.test.ts"
  "tests/build/derive-fast.test.ts tests/build/derive.fast.test.ts"
  "tests/contract/deprecation.test.ts tests/core/deprecation.test.ts"
  "tests/contract/openapi-lint.test.ts tests/contract/openapi.lint.test.ts"
  "tests/mcp/mcp.test.ts tests/mcp/server.test.ts"
  "tests/build/page-text.test.ts tests/build/page-from-html.text.test.ts"
  "tests/build/robots.test.ts tests/build/site-files.robots.test.ts"
  # Search relevance: the test goes with src/core/search.ts, its helpers to helpers/, its query sets to data/.
  "tests/search/judged.test.ts tests/core/search.judged.test.ts"
  "tests/search/metrics.ts tests/helpers/search-metrics.ts"
  "tests/search/pagefind-node.ts tests/helpers/pagefind-node.ts"
  "tests/search/judged-queries.json tests/data/judged-queries.json"
  "tests/search/held-out-queries.json tests/data/held-out-queries.json"
  # A published schema a test validates against: schemas/, with the others.
  "tests/build/mcp-server-card.schema.json tests/schemas/mcp-server-card.schema.json"
)

moved=0
for pair in "${MOVES[@]}"; do
  read -r from to <<<"$pair"
  if [ -e "$from" ]; then
    if [ -e "$to" ]; then echo "both $from and $to exist: resolve by hand" >&2; exit 1; fi
    mkdir -p "$(dirname "$to")"
    git mv "$from" "$to"
    moved=$((moved + 1))
  fi
done
echo "moved $moved file(s)"

# Rewrites text in the tracked files that contain it (fixed strings; a no-op once done).
rewrite() {
  local from=$1 to=$2
  shift 2
  local files
  # bench/results.* are written by npm run bench (the next run writes the new paths).
  files=$(git grep -l -F -e "$from" -- "$@" \
    ':!scripts/mirror-tests.sh' ':!package-lock.json' ':!bench/results.*' || true)
  [ -z "$files" ] && return 0
  local f=$from t=$to
  f=$(printf '%s' "$f" | sed -e 's/[]\/$*.^[]/\\&/g')
  t=$(printf '%s' "$t" | sed -e 's/[\/&]/\\&/g')
  echo "$files" | while read -r file; do sed -i "s/$f/$t/g" "$file"; done
}

# 1. Root-relative paths (README, comments, the linters' configs, bench imports): every moved file.
for pair in "${MOVES[@]}"; do
  read -r from to <<<"$pair"
  rewrite "$from" "$to" .
done

# 2. Relative imports and file reads that the moves change.
rewrite "from './metrics.ts'" "from '../helpers/search-metrics.ts'" tests/core/search.judged.test.ts
rewrite "from '../search/metrics.ts'" "from '../helpers/search-metrics.ts'" tests
rewrite "from '../search/pagefind-node.ts'" "from '../helpers/pagefind-node.ts'" tests
rewrite 'join(HERE, `${name}.json`)' "join(HERE, '../data', \`\${name}.json\`)" tests/helpers/search-metrics.ts
rewrite "join(import.meta.dirname, 'mcp-server-card.schema.json')" \
  "join(import.meta.dirname, '../schemas/mcp-server-card.schema.json')" tests/build/mcp-server-card.test.ts
rewrite 'kept as data beside this test: mcp-server-card.schema.json' \
  'kept as data in tests/schemas/mcp-server-card.schema.json' tests/build/mcp-server-card.test.ts

# 3. The prose that names the old folders of the judged query sets, and the schema's row in its README.
rewrite '(`tests/search/`)' '(`tests/data/`: `judged-queries.json`, `held-out-queries.json`)' README.md
rewrite 'judged query sets in tests/search' 'judged query sets in tests/data' bench/search.ts
rewrite '(tests/search: ' '(tests/data: ' bench/run.ts
row='| `mcp-server-card.schema.json` | MCP server card draft (SEP-2127, schema v1), served at'
row+=' `/.well-known/mcp/server-card.json`; `tests/build/mcp-server-card.test.ts` validates it |'
row+=' modelcontextprotocol/experimental-ext-server-card `schema.json`, commit 92999cb of 2026-06-26 |'
if [ -f tests/schemas/README.md ] && ! grep -q 'mcp-server-card.schema.json' tests/schemas/README.md; then
  printf '%s\n' "$row" >>tests/schemas/README.md
fi

# 4. Folders left empty by the moves.
for dir in tests/api tests/vercel tests/search; do
  [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ] && rmdir "$dir"
done

echo "now: bash scripts/apply-house-rules.sh (wraps the few lines made longer here), npm run typecheck,"
echo "     npx vitest run tests/server tests/core tests/build tests/contract tests/mcp, npx playwright test --list"
echo "by hand: the README's table of test folders (rows tests/api, tests/search, tests/vercel; see tests/README.md)"
