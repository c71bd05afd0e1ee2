#!/usr/bin/env bash
# The main job: install the toolchain if needed, build offlink, compile an OpenMP offload program
# for NVIDIA PTX and AMD GCN, link it through offlink (gcc -B target/offlink/libexec/offlink/),
# run it, and show what went into the link.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
scripts/setup-toolchain.sh
scripts/build.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/offlink-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A CUDA 12+ ptxas in /usr/local/bin makes stock GCC's nvptx links fail; offlink copes with it
# (and says so), so the demo keeps the user's PATH as it is.
targets=(-foffload=nvptx-none "-foffload=amdgcn-amdhsa=-march=gfx906")

echo "== compile examples/saxpy.c for nvptx-none and amdgcn-amdhsa (gfx906)"
gcc -O2 -fopenmp "${targets[@]}" -c examples/saxpy.c -o "$work/saxpy.o"
echo "== offload IR in the object (section-streamer list)"
target/offlink/bin/section-streamer list "$work/saxpy.o" | head -8
echo "   ..."
echo "== link through offlink: gcc -B target/offlink/libexec/offlink/"
gcc -fopenmp "${targets[@]}" -B "$repo/target/offlink/libexec/offlink/" \
  "$work/saxpy.o" -o "$work/saxpy"
echo "== run (no GPU here: libgomp falls back to the host)"
"$work/saxpy"
echo "== registered device images (offlink inspect: what the program hands to libgomp)"
target/offlink/bin/offlink inspect "$work/saxpy"
