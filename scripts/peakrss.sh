#!/usr/bin/env bash
# peakrss.sh CMD...: runs CMD and prints, on stderr when it ends, its wall
# time and the peak of the resident memory summed over CMD and every
# process under it, sampled every 100 ms (/usr/bin/time reports the largest
# single process only; drill deals virtual-clock drills to child
# processes). Exits with CMD's status.
set -uo pipefail
"$@" &
root=$!
start=$(date +%s.%N)
peak=0
tree() { # tree PID: PID and every descendant
  local p=$1 c
  echo "$p"
  for c in $(cat "/proc/$p/task/"*/children 2>/dev/null); do tree "$c"; done
}
while kill -0 "$root" 2>/dev/null; do
  kb=0
  for p in $(tree "$root"); do
    v=$(awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
    kb=$((kb + ${v:-0}))
  done
  [ "$kb" -gt "$peak" ] && peak=$kb
  sleep 0.1
done
wait "$root"
rc=$?
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v k="$peak" 'BEGIN { printf "peakrss: %.1f s wall, %.0f MiB peak RSS summed over the process tree\n", e - s, k / 1024 }' >&2
exit $rc
