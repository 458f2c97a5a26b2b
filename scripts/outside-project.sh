#!/usr/bin/env bash
# The acceptance test of the published packages, as an outside project meets them: the public
# packages are packed, a project outside the workspace (a copy of examples/outside-project in a
# temporary directory) installs the tarballs with plain npm (their dependencies come from the npm
# registry; better-sqlite3 may compile), type-checks with skipLibCheck false under node16 and
# bundler resolution, and runs its vitest partner flow through @fulfil/testkit and
# @fulfil/client. @fulfil/storage-postgres is left out on purpose: the server must not need it.
# Run it from the repository root after a build: `bash scripts/outside-project.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PNPM="${PNPM:-pnpm}"
START=$(date +%s)
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# node-gyp uses the Node headers installed with the system's Node instead of downloading them.
if [ -z "${npm_config_nodedir:-}" ] && [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi

PNPM="$PNPM" bash scripts/pack-packages.sh "$WORK/tarballs" >/dev/null
mkdir "$WORK/project"
cp -r examples/outside-project/package.json examples/outside-project/tsconfig.*.json \
  examples/outside-project/test "$WORK/project/"
cd "$WORK/project"

echo "npm install (tarballs, then registry dependencies)"
tarballs=()
for name in client console core server storage-kysely storage-sqlite testkit; do
  tarballs+=("$WORK"/tarballs/fulfil-"$name"-*.tgz)
done
timeout 1200 npm install --no-audit --no-fund --loglevel=error "${tarballs[@]}"
echo "installed in $(($(date +%s) - START))s"

if [ -e node_modules/pg ] || [ -e node_modules/@fulfil/storage-postgres ]; then
  echo "pg was installed although nothing asked for Postgres" >&2
  exit 1
fi
# Without the Postgres adapter, a postgres:// URL is a usage error naming the package.
set +e
message="$(npx --no-install fulfil migrate --db postgres://127.0.0.1:1/none 2>&1)"
code=$?
set -e
if [ "$code" -ne 2 ] || [[ "$message" != *"npm install @fulfil/storage-postgres"* ]]; then
  echo "expected exit 2 naming @fulfil/storage-postgres, got $code: $message" >&2
  exit 1
fi
echo "without @fulfil/storage-postgres: $message"

echo "tsc, moduleResolution node16, skipLibCheck false"
timeout 300 npx --no-install tsc -p tsconfig.node16.json
echo "tsc, moduleResolution bundler, skipLibCheck false"
timeout 300 npx --no-install tsc -p tsconfig.bundler.json
echo "vitest"
timeout 300 npx --no-install vitest run --root "$WORK/project"
echo "outside project: passed in $(($(date +%s) - START))s"
cd "$ROOT"
