#!/usr/bin/env bash
# Each thread's share of a core over an interval, from /proc/PID/task/*/stat (user + system time):
# the per-thread CPU figures of docs/BENCHMARKS.md (e.g. a JMH fork's worker, journal agent and
# adding thread). Threads that used less than 1 % are left out.
#
#   scripts/thread-cpu.sh PID [SECONDS]          (default 4 s)
#   scripts/thread-cpu.sh "$(pgrep -f jmh.runner.ForkedMain)" 4
set -euo pipefail
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ ! -d "/proc/$1" ]; then
  echo "usage: scripts/thread-cpu.sh PID [SECONDS]: PID must be a running process's id, got '${1:-}'" >&2
  exit 2
fi
PID="$1"
INTERVAL="${2:-4}"
HZ="$(getconf CLK_TCK)"
# builtins only, so that a snapshot of a JVM's threads takes well under a millisecond
snapshot() {
  local t stat comm rest
  for t in /proc/"$PID"/task/*; do
    read -r stat < "$t/stat" 2>/dev/null || continue
    read -r comm < "$t/comm" 2>/dev/null || continue
    rest="${stat##*) }"              # the fields after the name, which may hold spaces
    set -- $rest                     # $12, $13: utime, stime (fields 14 and 15 of stat)
    printf '%s\t%s\t%s\n' "${t##*/}" "$comm" "$(( ${12} + ${13} ))"
  done
}
start="$(date +%s%N)"
before="$(snapshot)"
sleep "$INTERVAL"
after="$(snapshot)"
elapsed="$(( $(date +%s%N) - start ))"
join -t $'\t' <(echo "$before" | sort) <(echo "$after" | sort) |
  awk -F '\t' -v hz="$HZ" -v ns="$elapsed" '{ pct = ($5 - $3) * 100 / hz / (ns / 1e9); if (pct >= 1) printf "%6.1f %%  %s\n", pct, $2 }' |
  sort -rn
