#!/usr/bin/env bash
# Measures virtual against real time with the real CLI (README: "--clock
# virtual", equivalence table). Usage, from the module root:
#   vclock/testdata/equivalence.sh DIR
# It builds drill, runs every set of settings below with `drill compare
# --json --record` in real time (all sets at once, twice: about 65 s), then
# with --clock virtual, writing DIR/sets.txt and, per set, real-SET.json,
# real2-SET.json and virt-SET.json with the journals in the directories of
# the same names. Then
#   DRILL_EQ_DIR=DIR go test -tags realtime ./internal/vclock -run TestEquivalenceTable -v
# prints the table (real run 1 against virtual, and real run 1 against real
# run 2 for scale) and fails on any disagreement beyond the tolerances.
set -euo pipefail
dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
go build -o "$dir/drill" ./cmd/drill
cat > "$dir/sets.txt" <<'SETS'
chapter|
A|--policies breaker,fail-fast --primary-timeout 2s --primary-retries 1
B|--policies breaker,fail-fast --trip-failures 3 --cooldown 10s
C|--policies fallback,breaker --time-limit-scope request
D|--policies breaker,fail-fast --outage-from 10s --outage-to 50s --seed 7
SETS
while IFS='|' read -r name args; do
	for run in real real2; do
		# shellcheck disable=SC2086 # args is a list of flags
		"$dir/drill" compare --json --record "$dir/$run-$name" $args > "$dir/$run-$name.json" &
	done
done < "$dir/sets.txt"
wait
while IFS='|' read -r name args; do
	# shellcheck disable=SC2086
	"$dir/drill" compare --clock virtual --json --record "$dir/virt-$name" $args > "$dir/virt-$name.json"
done < "$dir/sets.txt"
