#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh
mvn -B verify "$@"
