#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test.
#
# OFFLINK_TEST_GCC_VERSIONS=13,14,15 (opt-in, default none) also builds the Debian roots of those
# GCC versions (scripts/setup-toolchain.sh --gcc V; each ~1.5 min and 1-2 GB the first time, reused
# afterwards) so that StockGccVersionsIT runs the stock oracle in them instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh
IFS=',' read -r -a versions <<<"${OFFLINK_TEST_GCC_VERSIONS:-}"
for v in "${versions[@]}"; do
  [[ -n "$v" && "$v" != 12 ]] && scripts/setup-toolchain.sh --gcc "$v" >/dev/null
done
mvn -B verify "$@"
