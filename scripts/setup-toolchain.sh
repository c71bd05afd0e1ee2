#!/usr/bin/env bash
# Installs the Debian GCC offload toolchain offlink works with, unless it is already there.
#
#   scripts/setup-toolchain.sh              GCC 12 on the host (bookworm), as before
#   scripts/setup-toolchain.sh --gcc 12     the same
#   scripts/setup-toolchain.sh --gcc 13|14  a Debian trixie root per version (their amdgcn packages conflict)
#   scripts/setup-toolchain.sh --gcc 15|16  a Debian sid root per version
#   --packaging (GCC 12 only)               also the tools that build and check the Debian package (debian/)
#
# Roots live in $OFFLINK_ROOTS_DIR (default /var/cache/offlink/roots)/gcc-<V>, outside target/, and
# are reused once complete: the stamp file .offlink-root-complete is written last. Building a root
# needs root (debootstrap, chroot). Prints the root's path on stdout.
# Idempotent: no apt run when every package is installed.
set -euo pipefail

version=12
packaging=0
while (($#)); do
  case "$1" in
    --gcc) version="${2:?--gcc needs a version}"; shift 2 ;;
    --gcc=*) version="${1#--gcc=}"; shift ;;
    --packaging) packaging=1; shift ;;
    *) echo "setup-toolchain: error: unknown argument '$1' (expected --gcc 12|13|14|15|16 or --packaging)" >&2; exit 1 ;;
  esac
done

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi

if [[ "$version" == 12 ]]; then
  packages=(
    gcc-12 g++ gfortran-12
    gcc-12-offload-nvptx gcc-12-offload-amdgcn
    libgomp-plugin-nvptx1 libgomp-plugin-amdgcn1
    binutils file
    mold lld  # LinkersIT: -fuse-ld=mold|lld (gold is in bookworm's binutils)
  )
  if ((packaging)); then packages+=(dpkg-dev debhelper lintian); fi
  missing=()
  for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    echo "setup-toolchain: all ${#packages[@]} packages present" >&2
    exit 0
  fi
  echo "setup-toolchain: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  exit 0
fi

case "$version" in
  13 | 14) suite=trixie ;;
  15 | 16) suite=sid ;;
  *) echo "setup-toolchain: error: unsupported --gcc '$version' (expected 12, 13, 14, 15 or 16)" >&2; exit 1 ;;
esac

roots="${OFFLINK_ROOTS_DIR:-/var/cache/offlink/roots}"
root="$roots/gcc-$version"
stamp="$root/.offlink-root-complete"
if [[ -f "$stamp" ]]; then
  echo "setup-toolchain: reusing $root ($(cat "$stamp"))" >&2
  echo "$root"
  exit 0
fi

# The Debian mirror apt uses on this machine (deb822 or one-line sources), deb.debian.org otherwise.
mirror="${OFFLINK_DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
  mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\)\/\{0,1\}[[:space:]]*$/\1/p' \
    /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v -- '-security' | head -n 1 || true)
fi
if [[ -z "$mirror" ]]; then
  mirror=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
mirror="${mirror:-http://deb.debian.org/debian}"

start=$(date +%s)
# A partial root from an interrupted run is rebuilt from scratch.
if [[ -e "$root" ]]; then
  echo "setup-toolchain: removing incomplete root $root" >&2
  for m in proc dev; do
    if mountpoint -q "$root/$m"; then "${sudo[@]}" umount -l "$root/$m"; fi
  done
  "${sudo[@]}" rm -rf --one-file-system "$root"
fi
"${sudo[@]}" mkdir -p "$roots"
echo "setup-toolchain: debootstrap $suite into $root from $mirror" >&2
"${sudo[@]}" debootstrap --variant=minbase "$suite" "$root" "$mirror" >&2

apt_opts=(-o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o APT::Install-Recommends=false)
in_root() { "${sudo[@]}" chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive "$@"; }

"${sudo[@]}" mount -t proc proc "$root/proc"
trap '"${sudo[@]}" umount -l "$root/proc" || true' EXIT
in_root apt-get "${apt_opts[@]}" update -qq >&2

# Only the packages this suite has for this version (gcc-13-offload-amdgcn is trixie-only, etc.).
wanted=(
  "gcc-$version" "g++-$version" "gfortran-$version"
  "gcc-$version-offload-nvptx" "gcc-$version-offload-amdgcn"
  libgomp-plugin-nvptx1 libgomp-plugin-amdgcn1
  binutils file make
  binutils-gold mold lld  # LinkersIT (binutils 2.44+ ships gold apart; sid's 2.47 has none)
)
install=()
for p in "${wanted[@]}"; do
  if [[ -n "$(in_root apt-cache "${apt_opts[@]}" policy "$p" 2>/dev/null | sed -n 's/^  Candidate: //p' | grep -v '(none)')" ]]; then
    install+=("$p")
  else
    echo "setup-toolchain: $suite has no $p, skipped" >&2
  fi
done
echo "setup-toolchain: installing ${install[*]}" >&2
in_root apt-get "${apt_opts[@]}" install -y -qq "${install[@]}" >&2
in_root apt-get clean

elapsed=$(($(date +%s) - start))
size=$("${sudo[@]}" du -sh --one-file-system "$root" | cut -f1)
echo "suite=$suite gcc=$version seconds=$elapsed size=$size packages=${install[*]}" |
  "${sudo[@]}" tee "$stamp" >/dev/null
echo "setup-toolchain: $root ready in ${elapsed}s, $size" >&2
echo "$root"
