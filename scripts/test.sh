#!/usr/bin/env bash
# The test command: installs the toolchain if missing, then runs every unit and integration test
# (which replays every fuzz seed and crash input), then a short fuzz run (about a minute).
# The Testcontainers tests (DockerImageIT, DebPackageIT) get a container engine: the one that
# answers, else rootful podman set up by scripts/setup-container-engine.sh (needs root); without
# one they are skipped, and say so. The remote-cache tests get nginx with the WebDAV module
# (scripts/setup-nginx.sh, needs root to install); without it they are skipped, and say so.
#
# The GCC versions tested besides the installed GCC 12: OFFLINK_TEST_GCC_VERSIONS (default
# 13,14,15,16). Each listed version's Debian root is built first if missing
# (scripts/setup-toolchain.sh --gcc V into /var/cache/offlink/roots; ~1.5 min and 1-2 GB each the
# first time, reused afterwards) and the multi-version tests (GccVersionsNvptxIT,
# StockGccVersionsIT) then require it: a missing root fails them instead of skipping.
# --gcc12-only (or OFFLINK_TEST_GCC_VERSIONS=12) skips them all, for quick local runs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == --gcc12-only ]]; then
  shift
  OFFLINK_TEST_GCC_VERSIONS=12
fi
export OFFLINK_TEST_GCC_VERSIONS=${OFFLINK_TEST_GCC_VERSIONS:-13,14,15,16}
scripts/setup-toolchain.sh --packaging
scripts/setup-nginx.sh || echo "test.sh: no nginx with WebDAV: the remote-cache tests will be skipped" >&2
IFS=',' read -r -a versions <<<"$OFFLINK_TEST_GCC_VERSIONS"
for v in "${versions[@]}"; do
  if [[ -n "$v" && "$v" != 12 ]]; then
    start=$SECONDS
    scripts/setup-toolchain.sh --gcc "$v" >/dev/null
    echo "test.sh: GCC $v root ready ($((SECONDS - start)) s)" >&2
  fi
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
