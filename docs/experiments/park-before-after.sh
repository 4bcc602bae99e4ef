#!/bin/bash
# The parked hop of two builds, before and after in turn: B1 closed-loop latency with PARK
# workers (Framewire and the Disruptor's blocking wait; p50/p99 from each fork's histogram) and
# B2 chain throughput; then, with HOGS=N, ThrottleWakeupTest's graphs beside N busy processes.
#   BEFORE_JAR=... AFTER_JAR=... [ROUNDS=2] docs/experiments/park-before-after.sh
cd "$(dirname "$0")/../.."
for r in $(seq 1 "${ROUNDS:-2}"); do
 for j in before after; do
  jar=${BEFORE_JAR:?}; [ $j = after ] && jar=${AFTER_JAR:?}
  for c in FRAMEWIRE/PARK DISRUPTOR/PARK; do
   d=/tmp/parklat-$j-$r-${c%%/*}
   java @.mvn/jvm.config -jar $jar 'B1HopLatencyBenchmark.closedLoop' -p contender=$c -f 1 -wi 2 -i 3 -w 1s -r 1s -jvmArgsPrepend "@.mvn/jvm.config -Dframewire.suite.latencyDir=$d" > /tmp/park-b1.log 2>&1
   echo "$r $j B1 $c: $(cat $d/forks.txt 2>/dev/null | tail -1) $(grep -E "^B1HopLatencyBenchmark" /tmp/park-b1.log | head -1)"
  done
  java @.mvn/jvm.config -jar $jar B2ChainThroughputBenchmark -p contender=FRAMEWIRE/1,LOCKED/1 -f 1 -wi 2 -i 3 -w 1s -r 1s -jvmArgsPrepend "@.mvn/jvm.config -Dframewire.suite.latencyDir=/tmp/parklat-b2" 2>&1 | grep -E "^B2Chain" | sed "s/^/$r $j /"
 done
done
