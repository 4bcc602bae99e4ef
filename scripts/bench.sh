#!/usr/bin/env bash
# Runs the JMH benchmarks with the allocation profiler and keeps the results.
#
#   scripts/bench.sh [pattern] [more JMH options...]
#
#   scripts/bench.sh                          every benchmark
#   scripts/bench.sh 'bench.offheap'          the off-heap payload benchmarks
#   scripts/bench.sh PayloadPoolBenchmark -p leakTracking=false
#
# Builds bench/target/benchmarks.jar when it is missing or older than a source or POM of the
# modules it is built from (BUILD=1 forces a build, BUILD=0 skips it). Every JVM, this one and
# the JMH forks, gets the flags in .mvn/jvm.config. Results: bench-results/<UTC date>.json, and
# the machine they ran on beside it in <UTC date>.machine.txt.
#
# Modest by default; override with FORKS, WARMUP_ITERATIONS, ITERATIONS, WARMUP_TIME, TIME.
# The machines this runs on have 2 cores: a benchmark never runs more busy-spinning threads
# than cores (the benchmarks declare their thread counts; THREADS, if set, is passed as -t).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

PATTERN="${1:-.*}"
shift || true

JAR=bench/target/benchmarks.jar
needs_build() {
  [ ! -f "$JAR" ] && return 0
  [ -n "$(find bench/src offheap/src/main core/src/main pom.xml bench/pom.xml offheap/pom.xml core/pom.xml \
            -newer "$JAR" -type f 2>/dev/null | head -1)" ]
}
case "${BUILD:-auto}" in
  1) build=yes ;;
  0) build=no ;;
  *) if needs_build; then build=yes; else build=no; fi ;;
esac
if [ "$build" = yes ]; then
  echo "== building $JAR"
  mvn -B -q -pl bench -am package -DskipTests
fi

STAMP="$(date -u +%Y-%m-%dT%H%M%SZ)"
mkdir -p bench-results
OUT="bench-results/$STAMP.json"
{
  echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "nproc: $(nproc)"
  echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "jdk:   $(java -version 2>&1 | head -2 | tr '\n' ' ')"
  echo "git:   $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
} > "bench-results/$STAMP.machine.txt"
cat "bench-results/$STAMP.machine.txt"

args=(-f "${FORKS:-1}" -wi "${WARMUP_ITERATIONS:-3}" -i "${ITERATIONS:-5}"
      -w "${WARMUP_TIME:-1s}" -r "${TIME:-1s}")
if [ -n "${THREADS:-}" ]; then
  args+=(-t "$THREADS")
fi

set -x
java @.mvn/jvm.config -jar "$JAR" "$PATTERN" \
  -jvmArgsPrepend "@$ROOT/.mvn/jvm.config" \
  -prof gc \
  "${args[@]}" \
  -rf json -rff "$OUT" \
  "$@"
