#!/usr/bin/env bash
# Installs offlink's runnable tree (target/offlink, built by scripts/build.sh) under a prefix,
# optionally in place of GCC's own lto-wrapper and mkoffloads.
#
#   scripts/install.sh --prefix P                 P/bin, P/lib/offlink, P/libexec/offlink
#   scripts/install.sh --prefix P --replace-gcc   also divert GCC's files (dpkg-divert) to ours
#   scripts/install.sh --prefix P --uninstall     undo both, restoring GCC's files exactly
#
# Options: --gcc-libexec DIR (default /usr/lib/gcc/x86_64-linux-gnu/12), --root DIR (operate on a
# chroot-like tree: paths are prefixed with DIR and dpkg-divert gets --root; for tests).
set -euo pipefail

prefix=/usr/local
gcc_libexec=/usr/lib/gcc/x86_64-linux-gnu/12
root=""
replace=0
uninstall=0
while (($#)); do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --gcc-libexec) gcc_libexec=$2; shift 2 ;;
    --root) root=$2; shift 2 ;;
    --replace-gcc) replace=1; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "install.sh: error: unknown option '$1' (see --help)" >&2; exit 1 ;;
  esac
done

# One spelling of the prefix for install and uninstall alike (GCC's links to ours must be absolute,
# and --uninstall recognises them by their target): absolute, no trailing slash, no "..".
if [[ -z "$root" ]]; then
  prefix=$(realpath -m -- "$prefix")
else
  [[ $prefix == /* ]] || { echo "install.sh: error: --prefix must be absolute with --root" >&2; exit 1; }
  prefix=$(realpath -m -s -- "$prefix")
fi

repo=$(cd "$(dirname "$0")/.." && pwd -P)
tree=$repo/target/offlink
dest=$root$prefix
targets=(nvptx-none amdgcn-amdhsa)
# GCC files offlink replaces, relative to the GCC libexec directory, and ours for each.
replaced=(lto-wrapper accel/nvptx-none/mkoffload accel/amdgcn-amdhsa/mkoffload)
divert_suffix=.gcc-offlink-diverted

divert() { # add|remove PATH
  local args=(--local --rename --divert "$2$divert_suffix")
  if [[ -n "$root" ]]; then args+=(--root "$root"); fi
  if [[ $1 == add ]]; then dpkg-divert "${args[@]}" --add "$2" >&2
  else dpkg-divert "${args[@]}" --remove "$2" >&2; fi
}

if ((uninstall)); then
  for f in "${replaced[@]}"; do
    gccfile=$gcc_libexec/$f
    if [[ -L "$root$gccfile" && "$(readlink "$root$gccfile")" == "$prefix/libexec/offlink/$f" ]]; then
      rm -f "$root$gccfile"
    fi
    if [[ -e "$root$gccfile$divert_suffix" || -L "$root$gccfile$divert_suffix" ]]; then
      divert remove "$gccfile"
    fi
  done
  rm -rf "$dest/lib/offlink" "$dest/libexec/offlink"
  rm -f "$dest/bin/offlink" "$dest/bin/section-streamer"
  echo "offlink: uninstalled from $prefix" >&2
  exit 0
fi

[[ -x "$tree/libexec/offlink/lto-wrapper" ]] || {
  echo "install.sh: error: $tree is missing: run scripts/build.sh first" >&2; exit 1; }

install -d "$dest/bin" "$dest/lib/offlink" "$dest/libexec/offlink"
install -m 644 "$tree"/lib/*.jar "$dest/lib/offlink/"
for f in "$tree"/lib/*; do
  # Start-up caches record the jars' paths: the build tree's are useless here (retrained below).
  case "$f" in *.jar | */cds) ;; *) cp -a "$f" "$dest/lib/offlink/" ;; esac
done
for b in "$tree"/bin/*; do install -m 755 "$b" "$dest/bin/"; done
# The link clients GCC runs, the exec helper of the link server, and the JVM launchers (a link's
# own JVM and the link server's) under libexec/offlink/jvm.
install -d "$dest/libexec/offlink/jvm"
install -m 755 "$tree/libexec/offlink/lto-wrapper" "$tree/libexec/offlink/offlink-exec" \
  "$dest/libexec/offlink/"
install -m 755 "$tree/libexec/offlink/jvm/lto-wrapper" "$tree/libexec/offlink/jvm/offlink-server" \
  "$dest/libexec/offlink/jvm/"
for t in "${targets[@]}"; do
  install -d "$dest/libexec/offlink/accel/$t" "$dest/libexec/offlink/jvm/accel/$t"
  install -m 755 "$tree/libexec/offlink/accel/$t/mkoffload" "$dest/libexec/offlink/accel/$t/"
  install -m 755 "$tree/libexec/offlink/jvm/accel/$t/mkoffload" "$dest/libexec/offlink/jvm/accel/$t/"
done
# The nvptx linker stand-in (mkoffload links the PTX itself where it can; NvptxLinkerStandIn).
if [[ -x "$tree/libexec/offlink/accel/nvptx-none/linker/real-ld" ]] && [[ -d "$dest/libexec/offlink/accel/nvptx-none" ]]; then
  install -d "$dest/libexec/offlink/accel/nvptx-none/linker"
  install -m 755 "$tree/libexec/offlink/accel/nvptx-none/linker/real-ld" \
    "$dest/libexec/offlink/accel/nvptx-none/linker/"
fi
if [[ -z "$root" ]]; then
  OFFLINK_DIST=$dest "$repo/scripts/train-startup.sh" || true
fi
echo "offlink: installed under $prefix (use: gcc -B $prefix/libexec/offlink/ ...)" >&2

if ((replace)); then
  for f in "${replaced[@]}"; do
    gccfile=$gcc_libexec/$f
    if [[ ! -e "$root$gccfile" && ! -L "$root$gccfile" ]]; then
      echo "install.sh: error: $root$gccfile not found: is the GCC 12 offload toolchain installed?" >&2
      exit 1
    fi
    if [[ ! -e "$root$gccfile$divert_suffix" ]]; then divert add "$gccfile"; fi
    ln -sfn "$prefix/libexec/offlink/$f" "$root$gccfile"
  done
  echo "offlink: GCC's lto-wrapper and mkoffloads now run offlink (undo: --uninstall)" >&2
fi
