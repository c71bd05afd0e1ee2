#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test
# (which replays every fuzz seed and crash input), then a short fuzz run (about a minute).
# The Testcontainers tests (DockerImageIT, DebPackageIT) get a container engine: the one that
# answers, else rootful podman set up by scripts/setup-container-engine.sh (needs root); without
# one they are skipped, and say so.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh --packaging
if engine=$(scripts/setup-container-engine.sh | tail -1) && [[ $engine == DOCKER_HOST=* ]]; then
  export "${engine?}"
  # No registry can be reached: no Ryuk reaper image, no start-up check containers.
  export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CHECKS_DISABLE=true
else
  echo "test.sh: no container engine: DockerImageIT and DebPackageIT will be skipped" >&2
fi
mvn -B verify "$@"
scripts/fuzz.sh
