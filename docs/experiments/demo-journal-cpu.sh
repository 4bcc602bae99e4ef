#!/bin/bash
cd "$(dirname "$0")/../.."
for r in 1 2 3; do
 for v in off CALLS IO; do
  if [ $v = off ]; then a="--no-journal"; else a="--journal=/tmp/dj2 --journal-level=$v"; fi
  java @.mvn/jvm.config -jar tools/target/framewire.jar demo --duration 14 $a > /tmp/dj2.out 2>&1 &
  p=$!
  sleep 4; s0=$(awk '{print $14+$15}' /proc/$p/stat); sleep 8; s1=$(awk '{print $14+$15}' /proc/$p/stat)
  wait $p
  echo "$r $v steady CPU ticks over 8 s: $((s1-s0)) ($(awk -v d=$((s1-s0)) 'BEGIN{printf "%.1f", d/8}')% of a core) | $(grep -m1 '^throughput' /tmp/dj2.out | cut -c1-70) | load $(cut -d' ' -f1 /proc/loadavg)"
  rm -rf /tmp/dj2
 done
done
