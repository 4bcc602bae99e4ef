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
# The side-by-side suite (bench.suite) also writes its hop-latency histograms to
# bench-results/<UTC date>.latency/, and a run that includes it regenerates the suite section of
# docs/BENCHMARKS.md (between <!-- suite:begin --> and <!-- suite:end -->; the rest is kept) and
# the charts in docs/charts/ (REPORT=0 skips that, REPORT=1 forces it).
#
#   scripts/bench.sh 'bench.suite'            the suite, all contenders
#   scripts/bench.sh 'B1HopLatency' -p contender=FRAMEWIRE/PARK
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
  [ -n "$(find bench/src offheap/src/main core/src/main journal/src/main remote/src/main \
            pom.xml bench/pom.xml offheap/pom.xml core/pom.xml journal/pom.xml remote/pom.xml \
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
LATENCY="bench-results/$STAMP.latency"
{
  echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "nproc: $(nproc)"
  echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "kernel: $(uname -sr)"
  echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')"
  echo "load:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') (1, 5, 15 min, when the run started)"
  echo "jdk:   $(java -version 2>&1 | head -2 | tr '\n' ' ')"
  echo "git:   ${GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}"
} > "bench-results/$STAMP.machine.txt"
cat "bench-results/$STAMP.machine.txt"

# the settings that differ from the defaults, for the command the report quotes
ENV_SHOWN=()
for v in FORKS WARMUP_ITERATIONS ITERATIONS WARMUP_TIME TIME THREADS; do
  if [ -n "${!v:-}" ]; then ENV_SHOWN+=("$v=${!v}"); fi
done

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
  -jvmArgsAppend "-Dframewire.suite.latencyDir=$ROOT/$LATENCY" \
  -rf json -rff "$OUT" \
  "$@"
set +x

case "${REPORT:-auto}" in
  0) report=no ;;
  1) report=yes ;;
  *) if grep -q '\.bench\.suite\.' "$OUT" 2>/dev/null; then report=yes; else report=no; fi ;;
esac
if [ "$report" = yes ]; then
  echo "== regenerating the suite section of docs/BENCHMARKS.md and docs/charts/"
  java -Djava.awt.headless=true -cp "$JAR" dev.framewire.bench.report.BenchReport \
    --jmh "$OUT" --latency "$LATENCY" --machine "bench-results/$STAMP.machine.txt" \
    --command "$(printf '%s ' "${ENV_SHOWN[@]}" scripts/bench.sh "$PATTERN" "$@" | sed 's/ $//')" \
    --doc docs/BENCHMARKS.md --charts docs/charts
fi
