#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test
# (which replays every fuzz seed and crash input), then a short fuzz run (about a minute).
# The Testcontainers tests (DockerImageIT, DebPackageIT) get a container engine: the one that
# answers, else rootful podman set up by scripts/setup-container-engine.sh (needs root); without
# one they are skipped, and say so.
#
# OFFLINK_TEST_GCC_VERSIONS=13,14,15 (opt-in, default none) also builds the Debian roots of those
# GCC versions (scripts/setup-toolchain.sh --gcc V; each ~1.5 min and 1-2 GB the first time, reused
# afterwards) so that StockGccVersionsIT runs the stock oracle in them instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh --packaging
IFS=',' read -r -a versions <<<"${OFFLINK_TEST_GCC_VERSIONS:-}"
for v in "${versions[@]}"; do
  [[ -n "$v" && "$v" != 12 ]] && scripts/setup-toolchain.sh --gcc "$v" >/dev/null
done
if engine=$(scripts/setup-container-engine.sh | tail -1) && [[ $engine == DOCKER_HOST=* ]]; then
  export "${engine?}"
  # No registry can be reached: no Ryuk reaper image, no start-up check containers.
  export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CHECKS_DISABLE=true
else
  echo "test.sh: no container engine: DockerImageIT and DebPackageIT will be skipped" >&2
fi
mvn -B verify "$@"
scripts/fuzz.sh
