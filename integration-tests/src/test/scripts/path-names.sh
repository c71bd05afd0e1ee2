#!/usr/bin/env bash
# The file-name matrix of issue 18 (item 3), run by PathNamesIT: for each locale and each name,
# an nvptx offload program is linked by stock GCC 12 and through offlink (gcc -B), with the name
# in the working directory, TMPDIR, the -B folder, the source and the output. Names are built as
# bytes here (a JVM under LANG=C could not even create them).
#
#   path-names.sh DIST WORK GROUP      GROUP: utf8 (every name that is valid UTF-8) or latin1
#
# Prints one line per case: RESULT <locale> <name> stock=<status> ours=<status> ran=<status>;
# exits 1 when offlink fails a link that stock GCC completes, or the program it linked fails.
set -u
dist=$1 work=$2 group=$3
export PATH=/usr/sbin:/usr/bin:/sbin:/bin # GCC 12's sm_30 PTX and a CUDA 13 ptxas do not mix

case $group in
  utf8)
    ids=(space quotes e_nfc e_nfd dash)
    names=("with space" "q'u\"ote" "$(printf 'caf\303\251')" "$(printf 'cafe\314\201')" "-dash")
    ;;
  latin1)
    ids=(latin1)
    names=("$(printf 'caf\351')")
    ;;
  *) echo "path-names.sh: error: unknown group '$group'" >&2; exit 2 ;;
esac
locales=("LC_ALL=C" "LC_ALL=C.UTF-8" "LANG=C.UTF-8")
if locale -a 2>/dev/null | grep -qi '^en_US\.utf-\?8$'; then locales+=("LANG=en_US.UTF-8"); fi

src='int x;
#pragma omp declare target to(x)
int main(void) {
#pragma omp target map(tofrom: x)
  x = 42;
  return x == 42 ? 0 : 1;
}'

status=0
n=0
for loc in "${locales[@]}"; do
  for i in "${!names[@]}"; do
    n=$((n + 1))
    name=${names[$i]}
    dir="$work/$n/$name"
    mkdir -p "$dir/tmp" "$dir/b" || { echo "RESULT $loc ${ids[$i]} setup-failed"; status=1; continue; }
    ln -s "$dist/libexec/offlink/lto-wrapper" "$dir/b/lto-wrapper"
    ln -s "$dist/libexec/offlink/accel" "$dir/b/accel"
    printf '%s\n' "$src" >"$dir/$name.c"
    link() { # $1: output name, rest: extra gcc options
      local out=$1
      shift
      (cd "$dir" && env -u LC_ALL -u LANG -u LC_CTYPE "$loc" TMPDIR="$dir/tmp" \
        gcc -fopenmp -foffload=nvptx-none "$@" "./$name.c" -o "./$name.$out" >"$dir/$out.log" 2>&1)
    }
    link stock
    stock=$?
    link ours -B "$dir/b/"
    ours=$?
    ran=-
    if [ $ours -eq 0 ]; then
      (cd "$dir" && "./$name.ours")
      ran=$?
    fi
    echo "RESULT $loc ${ids[$i]} stock=$stock ours=$ours ran=$ran"
    if [ $stock -eq 0 ] && { [ $ours -ne 0 ] || [ "$ran" != 0 ]; }; then
      status=1
      sed 's/^/  | /' "$dir/ours.log" | grep -v 'warning' | tail -5
    fi
    if [ -n "$(ls -A "$dir/tmp")" ]; then
      echo "  temp files left in TMPDIR: $(ls -A "$dir/tmp" | tr '\n' ' ')"
      status=1
    fi
  done
done
exit $status
