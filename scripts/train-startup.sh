#!/usr/bin/env bash
# Build-time start-up caches for offlink's launchers: for every JDK 17+ under /usr/lib/jvm (or the
# JDK homes given as arguments), one training link of examples/saxpy.c through offlink (lto-wrapper
# with mkoffload in-process; the system gcc, 12 or later, and every offload target installed for
# it) while the JVM records what it loads:
#   JDK 25+: an AOT cache   (AOTMode=record, then create) -> lib/cds/<jdk>.aot
#   JDK 17+: a CDS archive  (-XX:ArchiveClassesAtExit)    -> lib/cds/<jdk>.jsa
# The JVM options reach the launcher through JAVA_TOOL_OPTIONS (its notice goes to stderr; stdout
# is lto-wrapper's protocol, which is also why JDK 25's one-step AOTCacheOutput is not used).
# Then the same for the link server's JVM (lib/cds/<jdk>-server.*, see train_server).
# Also records the newest JDK in lib/java.conf, the launchers' default JVM, unless the first
# argument is --no-java-conf (the Debian package: its launchers run the system java).
# Never fails the build: without GCC's offload compilers there is nothing to train on, and the
# launchers simply run without a cache.
set -uo pipefail
dist=${OFFLINK_DIST:-$(cd "$(dirname "$0")/.." && pwd)/target/offlink}
repo=$(cd "$(dirname "$0")/.." && pwd)
lib=$dist/lib
[[ -d "$dist/lib/offlink" ]] && lib=$dist/lib/offlink
mkdir -p "$lib/cds"

java_conf=1
if [[ ${1:-} == --no-java-conf ]]; then java_conf=0; shift; fi
homes=("$@")
if ((${#homes[@]} == 0)); then
  for h in /usr/lib/jvm/*; do [[ -x "$h/bin/java" && ! -L "$h" ]] && homes+=("$h"); done
fi

major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'; }

newest="" newest_major=0
# lto-wrapper's arguments for a link of saxpy.o, written anew for every link: lto-wrapper removes
# the -foffload-objects list when it is done with it, as GCC's does.
link_args() {
  printf '1\n%s\n' "$work/saxpy.o" > "$work/saxpy.ofldlist"
  printf '%s\n' -fresolution=saxpy.res -flinker-output=pie -foffload-objects=saxpy.ofldlist \
    > "$work/saxpy.lto_wrapper_args"
}
# One lto-wrapper run over saxpy.o as gcc runs it (a response file, gcc's own COLLECT_GCC_OPTIONS,
# OFFLINK_FLAGS set): PROGRAM with the image cache CACHE_DIR, OFFLOAD_TARGET_NAMES=TARGETS,
# JAVA_TOOL_OPTIONS=OPTIONS and the further NAME=VALUE settings.
saxpy_link() { # PROGRAM CACHE_DIR TARGETS OPTIONS [NAME=VALUE...]
  local program=$1 cache=$2 targets=$3 options=$4
  shift 4
  link_args
  (cd "$work" && env TMPDIR="$work" JAVA_TOOL_OPTIONS="$options" COLLECT_GCC="$cc" \
    OFFLINK_FLAGS=--parallel-offload OFFLINK_CACHE_DIR="$cache" OFFLINK_REMOTE_CACHE= \
    COLLECT_GCC_OPTIONS="'-fopenmp' '-foffload=nvptx-none,amdgcn-amdhsa' '-B' '$dist/libexec/offlink/' '-o' 'saxpy' '-mtune=generic' '-march=x86-64' '-pthread' '-dumpdir' 'saxpy.'" \
    OFFLOAD_TARGET_NAMES="$targets" COMPILER_PATH="$compiler_path" LIBRARY_PATH="$library_path" \
    "$@" "$program" @saxpy.lto_wrapper_args)
}
# train_link JAVA_HOME CACHE_DIR TARGETS JAVA_TOOL_OPTIONS: in a JVM of its own (the launcher).
train_link() {
  saxpy_link "$dist/libexec/offlink/jvm/lto-wrapper" "$2" "$3" "$4" OFFLINK_JAVA="$1/bin/java"
}
for h in "${homes[@]}"; do
  m=$(major "$h")
  [[ -n "$m" ]] && ((m >= 17)) || continue
  if ((m > newest_major)); then newest=$h newest_major=$m; fi
done
if [[ -n "$newest" ]] && ((java_conf)); then
  echo "$(readlink -f "$newest/bin/java")" > "$lib/java.conf"
fi

# The training link uses the system's gcc (12 on bookworm, 14 on trixie, ...), else the newest
# gcc-<V>, whichever first has an offload compiler installed, with every offload target installed
# for that version that offlink builds images for (`offlink gcc-support`; the Debian package keeps
# that table in lib/gcc-support): nvptx, amdgcn or both.
support=$(cat "$lib/gcc-support" 2>/dev/null || "$dist/bin/offlink" gcc-support 2>/dev/null || true)
has_accel() { [[ -x /usr/bin/x86_64-linux-gnu-accel-$1-gcc-$2 ]] && grep -qx "$2 $1 supported" <<<"$support"; }
cc= gcc_major=
for c in gcc gcc-16 gcc-15 gcc-14 gcc-13 gcc-12; do
  command -v "$c" >/dev/null || continue
  v=$("$c" -dumpversion 2>/dev/null) || continue
  v=${v%%.*}
  if has_accel nvptx-none "$v" || has_accel amdgcn-amdhsa "$v"; then
    cc=$c gcc_major=$v
    break
  fi
done
targets=(-fopenmp)
names=()
if has_accel nvptx-none "$gcc_major"; then
  targets+=(-foffload=nvptx-none)
  names+=(nvptx-none)
fi
if has_accel amdgcn-amdhsa "$gcc_major"; then
  # gfx906 where Debian builds its libraries (12 to 15), else the compiler's default (16: gfx90a).
  if x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-"$gcc_major" -print-multi-lib 2>/dev/null | grep -q '^gfx906;'; then
    targets+=("-foffload=amdgcn-amdhsa=-march=gfx906")
  else
    targets+=(-foffload=amdgcn-amdhsa)
  fi
  names+=(amdgcn-amdhsa)
fi
if [[ -z $cc ]]; then
  echo "train-startup: no GCC with an offload compiler: launchers run without a start-up cache" >&2
  exit 0
fi
# What gcc passes lto-wrapper, asked of the chosen gcc once.
compiler_path="$dist/libexec/offlink/:$(dirname "$("$cc" -print-prog-name=cc1)")/"
library_path="$(dirname "$("$cc" -print-libgcc-file-name)")/"
work=$(mktemp -d "${TMPDIR:-/tmp}/offlink-train.XXXXXX")
trap '[[ -n "${OFFLINK_TRAIN_KEEP:-}" ]] || rm -rf "$work"' EXIT
if ! "$cc" -O2 "${targets[@]}" -c "$repo/examples/saxpy.c" -o "$work/saxpy.o" 2>"$work/cc.log"; then
  echo "train-startup: cannot compile the training program; no start-up cache" >&2
  exit 0
fi
# The link server's own cache (lib/cds/<jdk>-server.*): a server started with the recording
# options, the way a link starts it (the link client, with JAVA_HOME naming the JDK and the
# options in JAVA_TOOL_OPTIONS, which are part of a server's identity), two links run through it,
# then the server stopped: its JVM writes what it recorded as it exits. The first link of a
# session starts the server, so that link's time depends on this cache. The server gets an image
# cache of its own, empty: its first link builds every image (the path of a cold link, which the
# in-process training's primed cache would have answered, leaving ~250 classes of the build path
# to be loaded from the jars by a server's first cold link: ~60 ms), its second takes them from
# the cache.
server_link() { # JAVA_HOME FOLDER IMAGE_CACHE TARGETS JAVA_TOOL_OPTIONS: through the link client
  saxpy_link "$dist/libexec/offlink/lto-wrapper" "$3" "$4" "$5" JAVA_HOME="$1" OFFLINK_JAVA= \
    OFFLINK_SERVER_DIR="$2" OFFLINK_SERVER_IDLE=0
}
train_server() { # JAVA_HOME MAJOR KEY TARGETS
  local h=$1 m=$2 key=$3 out flags sconf=$work/$3-server.aotconf folder=$work/servers-$3
  local scache=$work/server-image-cache-$3
  if (($2 >= 25)); then
    out=$lib/cds/$key-server.aot
    flags="-XX:AOTMode=record -XX:AOTConfiguration=$sconf -XX:+UnlockDiagnosticVMOptions"
    flags+=" -XX:-AOTRecordTraining"
  else out=$lib/cds/$key-server.jsa flags="-XX:ArchiveClassesAtExit=$out"; fi
  rm -f "$out" "$sconf"
  mkdir -p "$folder" && chmod 700 "$folder"
  rm -rf "$scache" && mkdir -p "$scache" && touch -d '2 minutes ago' "$scache/last-trim"
  { server_link "$h" "$folder" "$scache" "$4" "$flags" \
      && server_link "$h" "$folder" "$scache" "$4" "$flags"; } >"$work/server-train.log" 2>&1
  # Stopped through the same protocol `offlink server stop` speaks; it waits for the exit.
  JAVA_HOME=$h OFFLINK_SERVER_DIR=$folder OFFLINK_JAVA= "$dist/bin/offlink" server stop --all \
    >>"$work/server-train.log" 2>&1 || true
  if (($2 >= 25)) && [[ -f "$sconf" ]]; then
    IFS=: read -r -a jars < "$lib/classpath"
    local cp
    cp=$(printf "$lib/%s:" "${jars[@]}")
    "$h/bin/java" -XX:AOTMode=create -XX:AOTConfiguration="$sconf" -XX:AOTCache="$out" \
      --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
      -XX:+UseSerialGC -cp "${cp%:}" >>"$work/server-train.log" 2>&1 || true
  fi
  if [[ -f "$out" ]]; then
    chmod 644 "$out" # written by a server, which runs with umask 077
    echo "train-startup: $out" >&2
  else
    echo "train-startup: no link server cache for $h ($(tail -1 "$work/server-train.log"))" >&2
  fi
}

for h in "${homes[@]}"; do
  m=$(major "$h")
  [[ -n "$m" ]] && ((m >= 17)) || continue
  key=$(basename "$(readlink -f "$h")")
  conf=$work/$key.aotconf
  # No method profiles in the AOT cache (-AOTRecordTraining): the launchers run C1 only, which
  # uses none, and replaying them at start-up compiled methods the link never runs hot (~7 ms).
  if ((m >= 25)); then
    out=$lib/cds/$key.aot
    flags="-XX:AOTMode=record -XX:AOTConfiguration=$conf -XX:+UnlockDiagnosticVMOptions"
    flags+=" -XX:-AOTRecordTraining"
  else out=$lib/cds/$key.jsa flags="-XX:ArchiveClassesAtExit=$out"; fi
  rm -f "$out" "$conf"
  ok=0
  # lto-wrapper run directly, as the linker plugin runs it (JDK 25's record mode prints to stdout,
  # so this is no real link): offload images for both targets, built by mkoffload in-process,
  # and the PIE __OFFLOAD_TABLE__ object (LIBRARY_PATH set, as gcc sets it), so that every class
  # of a real link's path comes from the cache rather than from the jars. The device-image cache
  # is on, in a folder of this JDK's own, primed (unrecorded) with the gcn image: the recorded
  # link takes that image from the cache and builds the nvptx one, so both paths are trained (and
  # the nvptx build, whose links are short enough for start-up to show, is the one recorded).
  # train_link passes the arguments in a response file and the COLLECT_GCC_OPTIONS that gcc
  # really sets (-mtune, -march, -dumpdir), and sets OFFLINK_FLAGS (to what in-process builds
  # already do): a class only a real link loads would come from its jar, and opening the first
  # jar costs a link ~30 ms.
  cache=$work/image-cache-$key
  rm -rf "$cache"
  # With one target only, the recorded link builds it (the cache-hit path is then not trained).
  if ((${#names[@]} == 2)); then
    train_link "$h" "$cache" amdgcn-amdhsa "" >"$work/prime.log" 2>&1 || true
  fi
  # The recorded link also trims the folder (at most once a minute, before a store): its
  # marker is made two minutes old, so that the trim's classes come from the cache as well.
  mkdir -p "$cache" && touch -d '2 minutes ago' "$cache/last-trim"
  recorded=$(IFS=:; echo "${names[*]}")
  if train_link "$h" "$cache" "$recorded" "$flags" >"$work/train.log" 2>&1; then
    if ((m >= 25)); then
      # The same classpath string the launchers build from lib/classpath.
      IFS=: read -r -a jars < "$lib/classpath"
      cp=$(printf "$lib/%s:" "${jars[@]}")
      "$h/bin/java" -XX:AOTMode=create -XX:AOTConfiguration="$conf" -XX:AOTCache="$out" \
        --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
        -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "${cp%:}" >>"$work/train.log" 2>&1 || true
    fi
    [[ -f "$out" ]] && ok=1
  fi
  if ((ok)); then
    echo "train-startup: $out" >&2
  else
    rm -f "$out"
    echo "train-startup: training with $h failed; no cache for it ($(tail -1 "$work/train.log"))" >&2
  fi
  train_server "$h" "$m" "$key" "$recorded"
done
exit 0
