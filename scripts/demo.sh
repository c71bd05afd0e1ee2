#!/usr/bin/env bash
# The main job: build offlink and link an example offload program through it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh
scripts/build.sh
echo "demo: not yet — mkoffload has not landed; the runnable tree is in target/offlink/" >&2
