#!/bin/bash
# The demo's CPU a frame with the image kernels' Vector API loops on (jvm.config's default) and off
# (-Dframewire.simd=false), interleaved; JAVA picks the JDK. Steady state: 4-12 s into a 14 s run.
cd "$(dirname "$0")/../.."
JAVA=${JAVA:-java}
CAMERAS=${CAMERAS:-4}
for r in 1 2 3; do
 for v in on off; do
  a=""; [ $v = off ] && a="-Dframewire.simd=false"
  $JAVA @.mvn/jvm.config $a -jar tools/target/framewire.jar demo --no-journal --duration 14 --cameras $CAMERAS > /tmp/ds.out 2>&1 &
  p=$!
  sleep 4; s0=$(awk '{print $14+$15}' /proc/$p/stat); sleep 8; s1=$(awk '{print $14+$15}' /proc/$p/stat)
  wait $p
  echo "$r simd-$v steady CPU over 8 s: $(awk -v d=$((s1-s0)) 'BEGIN{printf "%.1f", d/8}')% of a core | $(grep -m1 '^throughput' /tmp/ds.out | cut -c1-80) | $(grep -m1 '^end to end' /tmp/ds.out | tr -s ' ' | cut -c1-80) | load $(cut -d' ' -f1 /proc/loadavg)"
 done
done
