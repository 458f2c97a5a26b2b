#!/usr/bin/env bash
# The acceptance test of the published packages, as an outside project meets them: the packages
# are packed as the README says (`pnpm -s pack:all @fulfil/testkit @fulfil/client`), a project
# outside the workspace (a copy of examples/outside-project in a temporary directory) runs the
# `npm install` line that prints, exactly (the packages' other dependencies come from the npm
# registry; better-sqlite3 may compile), type-checks with skipLibCheck false under node16 and
# bundler resolution, and runs its vitest partner flow through @fulfil/testkit and
# @fulfil/client. @fulfil/storage-postgres is not asked for: the server must not need it.
# Run it from the repository root: `bash scripts/outside-project.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PNPM="${PNPM:-pnpm}"
START=$(date +%s)
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# node-gyp uses the Node headers installed with the system's Node instead of downloading them.
if [ -z "${npm_config_nodedir:-}" ] && [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi

install_line="$($PNPM -s pack:all @fulfil/testkit @fulfil/client)"
mkdir "$WORK/project"
cp -r examples/outside-project/package.json examples/outside-project/tsconfig.*.json \
  examples/outside-project/test "$WORK/project/"
cd "$WORK/project"

echo "$install_line"
timeout 1200 bash -c "$install_line"
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
