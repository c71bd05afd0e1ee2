#!/usr/bin/env bash
# Installs the Debian GCC offload toolchain offlink works with, unless it is already there, and
# everything the build needs besides a JDK and Maven (the charmaps of `locales`, for the tree's
# Latin-1 locale).
#
#   scripts/setup-toolchain.sh              the machine's default GCC (12 on Debian 12 bookworm,
#                                           14 on Debian 13 trixie) with its nvptx and amdgcn
#                                           offload compilers, on the machine itself
#   scripts/setup-toolchain.sh --gcc 12     GCC 12, the test suite's main toolchain: on bookworm the
#                                           same as above; elsewhere a Debian bookworm root that can
#                                           run the whole suite (JDK, Maven, git and the packaging
#                                           tools too; scripts/test.sh runs the suite in it)
#   scripts/setup-toolchain.sh --gcc 13|14  a Debian trixie root per version (their amdgcn packages conflict)
#   scripts/setup-toolchain.sh --gcc 15|16  a Debian sid root per version
#   --packaging                             also the tools that build and check the Debian package
#                                           (debian/): on the machine, or in the GCC 12 root
#
# Roots live in $OFFLINK_ROOTS_DIR (default /var/cache/offlink/roots)/gcc-<V>, outside target/, and
# are reused once complete: the stamp file .offlink-root-complete is written last. Building a root
# needs root (debootstrap, which is installed when missing, and chroot). Prints the root's path on
# stdout. Idempotent: no apt run when every package is installed.
set -euo pipefail

version=
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
log() { echo "setup-toolchain: $*" >&2; }
# build-essential: dpkg-buildpackage refuses to build without it (an implicit build dependency).
packaging_tools=(build-essential dpkg-dev debhelper lintian)

installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]; }

apt_updated=0
host_install() { # PACKAGE...: apt-get install those not installed yet
  local missing=() p
  for p in "$@"; do installed "$p" || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  log "installing ${missing[*]}"
  if ((!apt_updated)); then "${sudo[@]}" apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}

# The major version of the machine's default GCC: what Debian's `gcc` package depends on
# (gcc-12 on bookworm, gcc-14 on trixie), installed or not.
default_gcc_major() {
  local deps
  deps=$(dpkg-query -W -f='${Depends}' gcc 2>/dev/null || true)
  if [[ -z "$deps" ]]; then
    if ((!apt_updated)); then "${sudo[@]}" apt-get update -qq; apt_updated=1; fi
    deps=$(apt-cache show --no-all-versions gcc 2>/dev/null | sed -n 's/^Depends: //p' | head -n 1)
  fi
  grep -o 'gcc-[0-9][0-9]*\b' <<<"$deps" | head -n 1 | cut -d- -f2
}

# The GCC packages of one version, and what offlink's build and demo need on the machine.
gcc_packages() { # MAJOR
  echo "gcc-$1" "g++-$1" "gfortran-$1" "gcc-$1-offload-nvptx" "gcc-$1-offload-amdgcn" \
    libgomp-plugin-nvptx1 libgomp-plugin-amdgcn1 binutils file
}

host_major=
if [[ -z "$version" || "$version" == 12 ]]; then
  host_major=$(default_gcc_major)
  [[ -n "$host_major" ]] || { log "error: cannot tell which GCC is this machine's default (no Debian 'gcc' package known to apt)"; exit 1; }
fi
if [[ -z "$version" || ("$version" == 12 && "$host_major" == 12) ]]; then
  # gcc and g++ (the defaults) for `gcc` and `g++` on PATH; locales for the build's charmaps.
  read -r -a packages <<<"$(gcc_packages "$host_major")"
  packages+=(gcc g++ locales)
  # kill(1) (procps), with which an interrupted link ends its compilers (ChildEnding); make, which
  # the jobserver and make -j tests run; python3, which runs the cache tests' link runner and
  # misbehaving servers. Minimal images (docker's debian) have none of them.
  packages+=(procps make python3)
  packages+=(mold lld)  # LinkersIT: -fuse-ld=mold|lld (gold is in bookworm's binutils)
  if ((packaging)); then packages+=("${packaging_tools[@]}"); fi
  host_install "${packages[@]}"
  log "GCC $host_major with its offload compilers: ${#packages[@]} packages present"
  exit 0
fi

case "$version" in
  12) suite=bookworm ;;
  13 | 14) suite=trixie ;;
  15 | 16) suite=sid ;;
  *) log "error: unsupported --gcc '$version' (expected 12, 13, 14, 15 or 16)"; exit 1 ;;
esac

roots="${OFFLINK_ROOTS_DIR:-/var/cache/offlink/roots}"
root="$roots/gcc-$version"
stamp="$root/.offlink-root-complete"
apt_opts=(-o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o APT::Install-Recommends=false)
in_root() { "${sudo[@]}" chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive "$@"; }

if [[ -f "$stamp" ]]; then
  log "reusing $root ($(cat "$stamp"))"
  missing_tools=()
  if ((packaging)) && [[ "$version" == 12 ]]; then
    for t in "${packaging_tools[@]}"; do
      [[ "$(in_root dpkg-query -W -f='${Status}' "$t" 2>/dev/null || true)" == "install ok installed" ]] ||
        missing_tools+=("$t")
    done
  fi
  if ((${#missing_tools[@]})); then
    "${sudo[@]}" mount -t proc proc "$root/proc"
    trap '"${sudo[@]}" umount -l "$root/proc" || true' EXIT
    in_root apt-get "${apt_opts[@]}" update -qq >&2
    in_root apt-get "${apt_opts[@]}" install -y -qq "${missing_tools[@]}" >&2
    in_root apt-get clean
  fi
  echo "$root"
  exit 0
fi
host_install debootstrap

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
  log "removing incomplete root $root"
  for m in proc dev; do
    if mountpoint -q "$root/$m"; then "${sudo[@]}" umount -l "$root/$m"; fi
  done
  "${sudo[@]}" rm -rf --one-file-system "$root"
fi
"${sudo[@]}" mkdir -p "$roots"
log "debootstrap $suite into $root from $mirror"
"${sudo[@]}" debootstrap --variant=minbase "$suite" "$root" "$mirror" >&2

"${sudo[@]}" mount -t proc proc "$root/proc"
trap '"${sudo[@]}" umount -l "$root/proc" || true' EXIT
in_root apt-get "${apt_opts[@]}" update -qq >&2

# Only the packages this suite has for this version (gcc-13-offload-amdgcn is trixie-only, etc.).
read -r -a wanted <<<"$(gcc_packages "$version")"
wanted+=(make binutils-gold mold lld)  # LinkersIT (binutils 2.44+ ships gold apart; sid's 2.47 has none)
if [[ "$version" == 12 ]]; then
  # The whole test suite runs in this root (scripts/test.sh on a machine that is not bookworm):
  # the build's tools, and this machine's extra CAs (a TLS-inspecting proxy's) for Maven, copied
  # before ca-certificates-java builds the JDK's trust store from them.
  wanted+=(gcc g++ default-jdk-headless maven git locales ca-certificates ca-certificates-java curl
    procps python3)
  if ((packaging)); then wanted+=("${packaging_tools[@]}"); fi
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    "${sudo[@]}" mkdir -p "$root/usr/local/share/ca-certificates"
    "${sudo[@]}" cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  fi
fi
install=()
for p in "${wanted[@]}"; do
  if [[ -n "$(in_root apt-cache "${apt_opts[@]}" policy "$p" 2>/dev/null | sed -n 's/^  Candidate: //p' | grep -v '(none)')" ]]; then
    install+=("$p")
  else
    log "$suite has no $p, skipped"
  fi
done
log "installing ${install[*]}"
in_root apt-get "${apt_opts[@]}" install -y -qq "${install[@]}" >&2
in_root apt-get clean

elapsed=$(($(date +%s) - start))
size=$("${sudo[@]}" du -sh --one-file-system "$root" | cut -f1)
echo "suite=$suite gcc=$version seconds=$elapsed size=$size packages=${install[*]}" |
  "${sudo[@]}" tee "$stamp" >/dev/null
log "$root ready in ${elapsed}s, $size"
echo "$root"
