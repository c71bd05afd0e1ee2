#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test
# (which replays every fuzz seed and crash input), then a short fuzz run (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh
mvn -B verify "$@"
scripts/fuzz.sh
