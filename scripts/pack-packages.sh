#!/usr/bin/env bash
# Packs every public package of packages/ (built first) into the directory given as $1, the way
# `pnpm publish` would: workspace:* ranges become versions, only each package's `files` go in.
# Private packages are never packed. Prints the tarballs' paths.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DEST="$(mkdir -p "$1" && cd "$1" && pwd)"
PNPM="${PNPM:-pnpm}"
for dir in packages/*/; do
  if [ "$(node -p "Boolean(require('./${dir}package.json').private)")" = "true" ]; then continue; fi
  (cd "$dir" && $PNPM pack --pack-destination "$DEST" >/dev/null)
done
ls "$DEST"/*.tgz
