#!/usr/bin/env bash
# The hot-plug soak: cameras added to and removed from a running graph every second while frames
# flow (dev.framewire.bench.core.HotplugSoak), printing every 30 s the off-heap bytes in use and
# reserved, the heap used after GC, the thread count and the open file descriptors; it exits 1 if
# one of them grows beyond its bound against the first report, or if anything leaked at the end.
# Not run in CI. docs/HOTPLUG.md has the bounds and the figures of a run.
#
#   scripts/soak-hotplug.sh [seconds=600] [cameras=8] [fps=15] [report_s=30] [churn_ms=1000]
#
# Builds bench/target/benchmarks.jar when it is missing or older than a source or POM of the
# modules it is built from (BUILD=1 forces a build). Leak tracking of payloads is on.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

JAR=bench/target/benchmarks.jar
needs_build() {
  [ ! -f "$JAR" ] && return 0
  [ -n "$(find bench/src offheap/src/main core/src/main journal/src/main remote/src/main \
            pom.xml bench/pom.xml offheap/pom.xml core/pom.xml journal/pom.xml remote/pom.xml \
            -newer "$JAR" -type f 2>/dev/null | head -1)" ]
}
if [ "${BUILD:-}" = 1 ] || needs_build; then
  echo "soak-hotplug: building $JAR (mvn -pl bench -am package) ..." >&2
  mvn -B -q -Dstyle.color=never -pl bench -am package -DskipTests >&2
fi

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -srm), $(nproc) cores, $(java -version 2>&1 | head -1)"
exec java @.mvn/jvm.config -Xmx512m -Dframewire.leakTracking=true -cp "$JAR" \
  dev.framewire.bench.core.HotplugSoak "$@"
