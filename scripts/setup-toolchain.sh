#!/usr/bin/env bash
# Installs the Debian GCC 12 offload toolchain offlink works with, unless it is already there.
# Idempotent: no apt run when every package is installed. Needs root (or sudo) only to install.
# --packaging: also the tools that build and check the Debian package (debian/).
set -euo pipefail

packages=(
  gcc-12 g++ gfortran-12
  gcc-12-offload-nvptx gcc-12-offload-amdgcn
  libgomp-plugin-nvptx1 libgomp-plugin-amdgcn1
  binutils file
)
if [[ ${1:-} == --packaging ]]; then packages+=(dpkg-dev debhelper lintian); fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup-toolchain: all ${#packages[@]} packages present" >&2
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "setup-toolchain: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
