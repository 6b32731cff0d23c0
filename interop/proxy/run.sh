#!/usr/bin/env bash
# The proxy with the official openai npm package as its client (pinned in
# package.json): the client meets a hang window and a 429 window through
# drill proxy, then drill replay and drill report read the proxy's journal.
# Needs node (18 or newer) and npm; .ci/run calls it when node is present.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/drill" ../../cmd/drill
npm ci --no-audit --no-fund --loglevel=error
DRILL="$work/drill" JOURNAL="$work/proxy.jsonl" node client.mjs

"$work/drill" replay "$work/proxy.jsonl" --json > "$work/replay.json"
grep -q '"policy": "proxy"' "$work/replay.json" || { echo "replay: not a proxy run"; cat "$work/replay.json"; exit 1; }
"$work/drill" report "$work/proxy.jsonl" -o "$work/report.md"
for want in "6 requests through drill proxy" "interop-model: 6 calls, 4 failed" "2 faulted" "fault hang" "429"; do
  grep -qF "$want" "$work/report.md" || { echo "report lacks: $want"; cat "$work/report.md"; exit 1; }
done
if grep -q "sk-interop" "$work/proxy.jsonl"; then
  echo "the journal holds the client's key"; exit 1
fi
echo "== interop/proxy: the openai npm package met a hang and a 429 window through drill proxy; replay and report read its journal"
