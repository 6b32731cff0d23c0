#!/usr/bin/env bash
# The proxy with the official openai npm package as its client (pinned in
# package.json): the client meets a hang window and a 429 window through
# drill proxy, then drill replay and drill report read the proxies' journals;
# then sdk.mjs checks the package's SDK profile fault by fault against
# drill predict --sdk node; then chat.mjs runs its tool-calling helpers through
# the chat faults.
# Needs node (20 or newer: the package's engines field asks for 22, but
# 7.60 runs these on 20) and npm; .ci/run calls it when node is present.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/drill" ../../cmd/drill
npm ci --no-audit --no-fund --loglevel=error
DRILL="$work/drill" JOURNAL="$work/proxy.jsonl" node client.mjs
# The npm package's SDK profile against the real client: every fault's
# attempts, duration and error as drill predict --sdk node says.
DRILL="$work/drill" WORK="$work" node sdk.mjs
# The chat workload's faults (overloaded, malformed-tool-call, loop) on the
# npm package's runTools and chat.completions.stream helpers.
DRILL="$work/drill" WORK="$work" node chat.mjs

for j in proxy proxy-429; do
  "$work/drill" replay "$work/$j.jsonl" --json > "$work/$j-replay.json"
  grep -q '"policy": "proxy"' "$work/$j-replay.json" || { echo "replay of $j: not a proxy run"; cat "$work/$j-replay.json"; exit 1; }
done
"$work/drill" report "$work/proxy.jsonl" "$work/proxy-429.jsonl" -o "$work/report.md"
for want in "3 requests through drill proxy" "interop-model: 3 calls, 2 failed" "fault hang" "fault rate-limit" "2 faulted"; do
  grep -qF "$want" "$work/report.md" || { echo "report lacks: $want"; cat "$work/report.md"; exit 1; }
done
if grep -q "sk-interop" "$work/proxy.jsonl" "$work/proxy-429.jsonl"; then
  echo "the journal holds the client's key"; exit 1
fi
echo "== interop/proxy: the openai npm package met a hang and a 429 window through drill proxy; replay and report read the journals"
