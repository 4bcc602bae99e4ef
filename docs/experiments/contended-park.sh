#!/bin/bash
# ThrottleWakeupTest's graphs (a held-back source and its consumer on parked workers, small
# queues: 1.1 M packets in all) beside N busy processes (`yes`), as on a machine whose cores
# other processes want. Prints the test class's time.
#   docs/experiments/contended-park.sh [N=4]
cd "$(dirname "$0")/../.."
pids=""; for i in $(seq 1 "${1:-4}"); do yes > /dev/null & pids="$pids $!"; done
trap 'kill $pids' EXIT
mvn -B -o -pl core test -Dcheckstyle.skip -Dtest=ThrottleWakeupTest -Dsurefire.failIfNoSpecifiedTests=false 2>&1 |
  grep -E "Tests run:.*Time|stalled"
echo "load $(cut -d' ' -f1-3 /proc/loadavg), nproc $(nproc), $(java -version 2>&1 | head -1)"
