#!/usr/bin/env bash
# Runs one fuzz target in fuzzing mode (Jazzer, single-threaded) for SECONDS, then prints libFuzzer's
# closing statistics. Findings land in the target's src/test/resources/...Inputs/<method>/ directory
# as crash-<sha1> files, which every later `mvn verify` runs as regression tests: fix the source,
# rename the file to say what it is, and commit it. docs/CHECKS.md, "Fuzzing".
#
#   scripts/fuzz.sh TARGET SECONDS [per-input timeout seconds, default 10]
#   TARGET: config | config-structure | journal | remote | video
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh config|config-structure|journal|remote|video SECONDS [TIMEOUT]" >&2; exit 2; }
[ $# -ge 2 ] || usage
target=$1
seconds=$2
timeout=${3:-10}
case "$seconds$timeout" in *[!0-9]*) usage ;; esac
case "$target" in
  config)           module=core;    test=dev.framewire.core.config.GraphConfigFuzzTest; method=parseAndPlan ;;
  config-structure) module=core;    test=dev.framewire.core.config.GraphConfigFuzzTest; method=parseStructure ;;
  journal)          module=journal; test=dev.framewire.journal.JournalFuzzTest; method=read ;;
  remote)           module=remote;  test=dev.framewire.remote.RemoteWireFuzzTest; method=fragments ;;
  video)            module=core;    test=dev.framewire.core.calculators.video.NutDemuxerFuzzTest; method=demux ;;
  *) usage ;;
esac

# Jazzer's libFuzzer arguments as JUnit configuration parameters: argument 0 is argv[0]; those
# after it follow the @FuzzTest's own, so this -max_total_time wins over its maxDuration.
log="$module/target/fuzz-$target.log"
mkdir -p "$module/target"
status=0
JAZZER_FUZZ=1 mvn -B -q -o -pl "$module" -am test -Dcheckstyle.skip \
  -Dtest="${test##*.}#$method" -Dsurefire.failIfNoSpecifiedTests=false \
  -Djazzer.internal.arg.0=fuzz \
  -Djazzer.internal.arg.1=-max_total_time="$seconds" \
  -Djazzer.internal.arg.2=-timeout="$timeout" \
  -Djazzer.internal.arg.3=-print_final_stats=1 > "$log" 2>&1 || status=$?

# libFuzzer writes to the forked JVM's native stderr, which Maven passes through to $log
echo "== $target ($test#$method), $seconds s; whole output in $log"
grep -E '^INFO: seed corpus' "$log" || true
grep -E '^#[0-9]+' "$log" | tail -n 2 || true
grep -E '^stat::|== Java Exception|FuzzTestFinding|FuzzerSecurityIssue|Test unit written|crash-[0-9a-f]+|timeout-|oom-' "$log" | head -n 20 || true
[ "$status" -eq 0 ] || echo "== a finding (or a build failure): see $log" >&2
exit "$status"
