#!/usr/bin/env bash
# Lints what would be published: each public package is packed (pack:all), then checked with publint
# (--strict: warnings fail too) and with Are the Types Wrong (--profile esm-only: the packages
# are ES modules; their types must resolve under node16 ESM and bundler resolution).
# Run it from the repository root after a build: `bash scripts/check-packages.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PNPM="${PNPM:-pnpm}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failed=0
$PNPM -s pack:all --out "$WORK" >/dev/null
for tarball in "$WORK"/*.tgz; do
  echo "── $(basename "$tarball")"
  tar -tzf "$tarball" >"$WORK/files"
  for file in LICENSE README.md; do
    grep -qx "package/$file" "$WORK/files" || { echo "no $file in $tarball"; failed=1; }
  done
  node_modules/.bin/publint run "$tarball" --strict || failed=1
  node_modules/.bin/attw "$tarball" --profile esm-only --format table-flipped || failed=1
done
exit "$failed"
