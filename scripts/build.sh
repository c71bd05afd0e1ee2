#!/usr/bin/env bash
# Builds the runnable tree target/offlink/ (launchers in bin/ and libexec/offlink/, jars in lib/).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package "$@"
echo "offlink built: $(pwd)/target/offlink (use: gcc -B $(pwd)/target/offlink/libexec/offlink/ ...)" >&2
