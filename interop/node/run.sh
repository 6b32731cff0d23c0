#!/usr/bin/env bash
# Interoperability check: the official openai npm package (pinned in
# package.json) against `drill fake-model`. .ci/run calls it when node and
# npm are present. Usage: interop/node/run.sh [path/to/drill]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
drill="${1:-}"
if [ -z "$drill" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$root" && go build -o "$tmp/drill" ./cmd/drill)
  drill="$tmp/drill"
fi
cd "$here"
npm ci --no-audit --no-fund --silent
node check.mjs "$drill"
