#!/usr/bin/env bash
# Issue 18, item 8: -save-temps in a 4,090-character working directory, run by PathNamesIT. For
# each offload target set, the same source is linked by stock GCC 12 and through offlink (gcc -B)
# with -save-temps, each in its own working directory of exactly 4,090 characters: GCC's dump names
# (./t.ltrans_args, t.xnvptx-none.mkoffload.o, ...) are then only usable as relative names, since
# the absolute ones pass PATH_MAX (4096). Both programs run under the registration spy.
#
#   long-cwd.sh DIST WORK SPY
#
# Prints one line per target set: RESULT <targets> stock=<status> ours=<status> ran=<status>
# spy=<same|differs>; exits 1 when offlink fails where stock links, or registers differently.
set -u
dist=$1 work=$2 spy=$3
export PATH=/usr/sbin:/usr/bin:/sbin:/bin # GCC 12's sm_30 PTX and a CUDA 13 ptxas do not mix
export LC_ALL=C

src='int x;
#pragma omp declare target to(x)
int main(void) {
#pragma omp target map(tofrom: x)
  x = 42;
  return x == 42 ? 0 : 1;
}'

mkdir -p "$work/b" "$work/tmp"
ln -s "$dist/libexec/offlink/lto-wrapper" "$work/b/lto-wrapper"
ln -s "$dist/libexec/offlink/accel" "$work/b/accel"

# A directory named by exactly 4090 characters, under $work, ending in $1.
long_dir() {
  local d=$work/$1
  while [ $((${#d} + 200)) -lt 4090 ]; do d=$d/$(printf '%0199d' 0 | tr 0 d); done
  d=$d/$(printf "%0$((4090 - ${#d} - 1))d" 0 | tr 0 e)
  mkdir -p "$d" && printf '%s\n' "$d"
}

status=0
for targets in nvptx-none amdgcn-amdhsa nvptx-none,amdgcn-amdhsa; do
  rm -rf "$work/s" "$work/o"
  s=$(long_dir s) && o=$(long_dir o) || { echo "RESULT $targets setup-failed"; exit 1; }
  [ ${#s} -eq 4090 ] && [ ${#o} -eq 4090 ] || { echo "RESULT $targets setup-failed ${#s}"; exit 1; }
  link() { # $1: directory, rest: extra gcc options
    local dir=$1
    shift
    printf '%s\n' "$src" >"$dir/t.c"
    (cd "$dir" && TMPDIR="$work/tmp" gcc -fopenmp -foffload="$targets" -save-temps "$@" \
      t.c -o t >link.log 2>&1)
  }
  spied() { # $1: directory, $2: dump file
    (cd "$1" && LD_PRELOAD=$spy OFFLINK_SPY_OUT=$2 ./t)
  }
  link "$s"
  stock=$?
  link "$o" -B "$work/b/"
  ours=$?
  ran=- same=-
  if [ $stock -eq 0 ]; then spied "$s" "$work/stock.spy"; fi
  if [ $ours -eq 0 ]; then
    spied "$o" "$work/ours.spy"
    ran=$?
    if [ $stock -eq 0 ]; then
      if cmp -s "$work/stock.spy" "$work/ours.spy" && [ -s "$work/ours.spy" ]; then
        same=same
      else
        same=differs
      fi
    fi
  fi
  echo "RESULT $targets stock=$stock ours=$ours ran=$ran spy=$same"
  if [ $stock -eq 0 ] && { [ $ours -ne 0 ] || [ "$ran" != 0 ] || [ $same != same ]; }; then
    status=1
    (cd "$o" && grep -v 'warning' link.log | cut -c1-300 | tail -5 | sed 's/^/  | /')
  fi
  if [ -n "$(ls -A "$work/tmp")" ]; then
    echo "  temp files left in TMPDIR: $(ls -A "$work/tmp" | tr '\n' ' ')"
    status=1
  fi
  rm -f "$work/stock.spy" "$work/ours.spy"
done
rm -rf "$work/s" "$work/o"
exit $status
