#!/bin/bash
# The hot path of two builds, before and after in turn: HopPathBenchmark (the hop, the SPSC floor,
# the ASYNC journal), B1 closed-loop latency (SPSC floor, Framewire, Disruptor; p50/p99 from each
# fork's own histogram), B2 chain throughput against the locked design and, with JOURNAL=1,
# JournalLevelBenchmark at every level with -prof gc. One fork per contender; compare ratios
# within a round (docs/BENCHMARKS.md, "Host state").
#   BEFORE_JAR=... AFTER_JAR=... [ROUNDS=2] [JOURNAL=1] docs/experiments/hot-path-before-after.sh
cd "$(dirname "$0")/../.."
for r in $(seq 1 "${ROUNDS:-2}"); do
 for j in before after; do
  jar=${BEFORE_JAR:?}; [ $j = after ] && jar=${AFTER_JAR:?}
  java @.mvn/jvm.config -jar $jar HopPathBenchmark.hop -f 1 -wi 3 -w 1s -i 5 -r 1s 2>&1 | grep -E "^HopPathBenchmark.hop " | sed "s/^/$r $j /"
  for c in SPSC FRAMEWIRE DISRUPTOR; do
   java @.mvn/jvm.config -jar $jar 'B1HopLatencyBenchmark.closedLoop' -p contender=$c/BUSY_SPIN -f 1 -wi 2 -i 3 -w 1s -r 1s -jvmArgsPrepend "@.mvn/jvm.config -Dframewire.suite.latencyDir=/tmp/hotlat-$j-$r-$c" > /tmp/hot-b1.log 2>&1
   echo "$r $j B1 $c: $(cat /tmp/hotlat-$j-$r-$c/forks.txt 2>/dev/null | tail -1) $(grep -E "^B1HopLatencyBenchmark" /tmp/hot-b1.log | head -1)"
  done
  java @.mvn/jvm.config -jar $jar B2ChainThroughputBenchmark -p contender=FRAMEWIRE/1,LOCKED/1 -f 1 -wi 2 -i 3 -w 1s -r 1s -jvmArgsPrepend "@.mvn/jvm.config -Dframewire.suite.latencyDir=/tmp/hotlat-b2" 2>&1 | grep -E "^B2Chain" | sed "s/^/$r $j /"
  if [ "${JOURNAL:-0}" = 1 ]; then
   java @.mvn/jvm.config -jar $jar JournalLevelBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc 2>&1 | grep -E "^JournalLevelBenchmark.call( |:gc.alloc.rate.norm)" | sed "s/^/$r $j /"
  fi
 done
done
