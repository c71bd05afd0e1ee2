#!/usr/bin/env bash
# The link server's long soak (issue 30), not part of the test run: LinkServerIT's soak with N links
# (default 1,000; scripts/test.sh runs 200) through the suite's server mode, four at a time, about
# one in eight clients SIGINTed or SIGTERMed at a random moment and the server SIGKILLed every
# 25th link; then nothing may be left in TMPDIR or the cache, no child running, the server's
# descriptors back at idle and its memory bounded. Prints the soak's summary line (~5 min on 2 cores).
#
#   scripts/soak.sh [N]
#
# Needs what scripts/test.sh installs (GCC 12's offload compilers): run that once first.
set -euo pipefail
cd "$(dirname "$0")/.."
links=${1:-1000}
[[ $links =~ ^[1-9][0-9]*$ ]] || { echo "soak: error: N must be a positive number, not '$links'" >&2; exit 1; }
log=target/soak.log
mkdir -p target
# Only the server run has LinkServerIT: the in-process run finds no test, writes no summary, and
# failsafe:verify then fails on that missing file. The server run's summary is the soak's verdict.
summary=integration-tests/target/failsafe-reports/server.xml
rm -f "$summary" # not an earlier run's verdict
mvn -B verify -pl integration-tests -am -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test='LinkServerIT#soakWithSignalsAndServerKills' -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dofflink.it.soakLinks="$links" >"$log" 2>&1 || true
grep -h '^soak: ' "$log" | head -1 || true
grep -E 'Tests run:.*LinkServerIT|FAIL' "$log" | head -5 || true
if [[ -f $summary ]] && grep -q '<completed>1</completed>' "$summary" \
  && grep -q '<errors>0</errors>' "$summary" && grep -q '<failures>0</failures>' "$summary" \
  && grep -q '<skipped>0</skipped>' "$summary"; then
  echo "soak: PASS ($links links; log: $log)"
else
  echo "soak: FAIL (log: $log)"
  exit 1
fi
