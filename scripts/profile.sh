#!/usr/bin/env bash
# Runs a graph under Java Flight Recorder and summarizes the recording.
#
#   scripts/profile.sh GRAPH.pbtxt [framewire run args...]
#   scripts/profile.sh graphs/camera_ingest.pbtxt --duration 10
#
# Runs `scripts/framewire run GRAPH.pbtxt ARGS...` with
# -XX:StartFlightRecording=settings=scripts/framewire.jfc (the dev.framewire.* events, allocation
# and lock profiling), into profiles/<graph>-<UTC date>.jfr (JFR_OUT overrides), then prints
# `framewire jfr summary` of it (SUMMARY=0 skips that): per-node latency percentiles, drops,
# allocation hot spots, lock contention, and a per-node latency chart beside the recording.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
GRAPH="$1"
shift
if [ ! -f "$GRAPH" ]; then
  echo "profile.sh: no such graph file: $GRAPH" >&2
  exit 1
fi

STAMP="$(date -u +%Y-%m-%dT%H%M%SZ)"
OUT="${JFR_OUT:-$ROOT/profiles/$(basename "${GRAPH%.*}")-$STAMP.jfr}"
mkdir -p "$(dirname "$OUT")"

# The java launcher reads JDK_JAVA_OPTIONS: scripts/framewire stays as it is.
export JDK_JAVA_OPTIONS="${JDK_JAVA_OPTIONS:-} -XX:StartFlightRecording=filename=$OUT,settings=$ROOT/scripts/framewire.jfc,dumponexit=true"
echo "== recording into $OUT" >&2
status=0
"$ROOT/scripts/framewire" run "$GRAPH" "$@" || status=$?
unset JDK_JAVA_OPTIONS

if [ ! -s "$OUT" ]; then
  echo "profile.sh: no recording was written (run exited with $status)" >&2
  exit "${status:-1}"
fi
if [ "${SUMMARY:-1}" != 0 ]; then
  "$ROOT/scripts/framewire" jfr summary "$OUT"
fi
exit "$status"
