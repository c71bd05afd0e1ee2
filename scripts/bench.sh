#!/usr/bin/env bash
# offlink benchmarks: stock GCC against offlink on synthetic offload workloads, alternating runs.
#   scripts/bench.sh [--quick|--full|--cache|--device-jobs] [--runs N] [--out DIR]
#   --quick (default): N up to 100 translation units, a few minutes on 2 cores
#   --full:            adds N=1000, both-target scale curve, more variants (tens of minutes)
#   --cache:           relinks with offlink's device-image cache: warm local cache after a host-only
#                      change and warm remote cache (nginx WebDAV on loopback, set up by
#                      scripts/setup-nginx.sh) against stock, cold cache against --no-cache;
#                      ratios against targets, PASS/FAIL; --runs 7 by default (~10 min)
#   --device-jobs:     OFFLINK_FLAGS=--device-jobs=2 (issue 29): gfx906/nvptx N=1000 cold links and
#                      a 20-unit relink after a one-unit device change, against stock, checked
#                      partitions; pass-through: --device-jobs-n N, --cases cold relink (~25 min)
#   --trees DIR:       this tree against the offlink tree DIR (a build of an older commit), GCC 12
#                      nvptx saxpy cold in a JVM per link, on the tree's JDK and Debian's openjdk-17,
#                      stock in the same rounds (issue 26: a refactoring costs no time)
#   --out DIR:         where bench.md, bench.csv, scale.png and scale.svg go (default target/bench/<mode>)
#   --gcc V:           instead: saxpy links in the Debian root of GCC V (13-15; as root) and the
#                      GCC 12 saxpy links here, offlink/stock ratios from one run
#   --server:          links through offlink's resident link server: GCC 12 saxpy (Debian's
#                      openjdk-17, the tree's JDK; nvptx, gfx906, both, warm-cache relink), GCC 14
#                      and 15 saxpy in their Debian roots (openjdk-21/-25, installed there when
#                      missing), the first link that starts a server; each row names its mode
#                      and JVM; ratios against issue 30's targets, PASS/FAIL (as root)
# Builds target/offlink first when it is missing. Details: scripts/bench/offbench.py --help.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=--quick
gcc=
args=()
while (($#)); do
  case $1 in
    --quick | --full | --cache | --server | --device-jobs) mode=$1 ;;
    --trees) mode=$1; args+=(--baseline "${2:?--trees needs an offlink tree}"); shift ;;
    --device-jobs-n) args+=(--device-jobs "${2:?$1 needs a value}"); shift ;;
    --cases) shift; args+=(--cases); while (($#)) && [[ $1 != --* ]]; do args+=("$1"); shift; done; continue ;;
    --out | --runs) args+=("$1" "${2:?$1 needs a value}"); shift ;;
    --gcc) gcc=${2:?--gcc needs a version}; shift ;;
    --out=* | --runs=*) args+=("$1") ;;
    -h | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [[ ! -x target/offlink/libexec/offlink/lto-wrapper ]]; then
  echo "bench.sh: target/offlink is missing; building it (scripts/build.sh)" >&2
  scripts/build.sh
fi
# Stock GCC's nvptx link fails with /usr/local/bin's CUDA 13 ptxas: both sides run on this PATH.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# The plots are drawn with Debian's matplotlib (Debian's python3 on this PATH); offbench.py
# imports it in every mode, --gcc included.
if ! python3 -c 'import matplotlib' 2>/dev/null; then
  echo "bench.sh: installing python3-matplotlib for the scale plot" >&2
  sudo_=(); ((EUID == 0)) || sudo_=(sudo)
  "${sudo_[@]}" apt-get install -y -qq --no-install-recommends python3-matplotlib >&2
fi
if [[ $mode == --cache ]]; then
  scripts/setup-nginx.sh
  exec python3 scripts/bench/offbench.py cache "${args[@]}"
fi
if [[ $mode == --server ]]; then
  exec python3 scripts/bench/offbench.py server "${args[@]}"
fi
if [[ $mode == --trees ]]; then
  exec python3 scripts/bench/offbench.py trees "${args[@]}"
fi
if [[ $mode == --device-jobs ]]; then
  exec python3 scripts/bench/offbench.py devicejobs "${args[@]}"
fi
if [[ -n $gcc ]]; then
  exec python3 scripts/bench/offbench.py gcc --gcc "$gcc" "${args[@]}"
fi
exec python3 scripts/bench/offbench.py suite "$mode" "${args[@]}"
