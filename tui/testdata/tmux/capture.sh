#!/usr/bin/env bash
# Captures the dashboard in tmux: a hang drill (breaker policy, recorded
# with `drill run --outage hang --policy breaker --clock virtual --record`)
# replayed paused at 20 s, 45 s and its end, at 80×24, 120×40 and 160×48.
# Usage: tui/testdata/tmux/capture.sh path/to/drill
set -euo pipefail
drill=${1:?usage: capture.sh path/to/drill}
dir=$(cd "$(dirname "$0")" && pwd)
for size in 80x24 120x40 160x48; do
	w=${size%x*} h=${size#*x}
	for at in 20s 45s end; do
		pos=$at
		[ "$at" = end ] && pos=999s
		name="ui-$$-$size-$at"
		tmux new -d -s "$name" -x "$w" -y "$h" \
			"TERM=xterm-256color NO_COLOR=1 $drill replay '$dir/hang-breaker.jsonl' --at $pos --expect 'served.error == 0' --expect 'calls_to_broken_outage <= 60'; sleep 30"
		sleep 2
		tmux capture-pane -p -t "=$name:" >"$dir/hang-breaker-$size-$at.txt"
		tmux kill-session -t "=$name"
	done
done
