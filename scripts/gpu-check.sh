#!/usr/bin/env bash
# GPU check of offlink's nvptx images (issue 29): the corpus programs built for nvptx-none by stock
# GCC 12, by offlink (default mode) and by offlink with OFFLINK_FLAGS=--device-jobs=2, run on a real
# NVIDIA GPU with OMP_TARGET_OFFLOAD=MANDATORY and ACC_DEVICE_TYPE=nvidia (host fallback is an
# error), their outputs compared with each other and with the corpus's expected output.
#
#   scripts/gpu-check.sh prepare [--out DIR]   here (GCC 12 offload toolchain, target/offlink):
#       builds every program three ways and packs them, with the libgomp.so.1 and
#       libgomp-plugin-nvptx.so.1 they need (and the Fortran/C++ runtimes), into DIR/bundle.tar.xz
#       (default DIR: target/gpu-check; a few MiB). Takes a few minutes on 2 cores.
#   scripts/gpu-check.sh run [BUNDLE]          there (NVIDIA driver, no GCC needed; bash, tar, xz):
#       unpacks BUNDLE (default target/gpu-check/bundle.tar.xz) into a temp folder, first checks
#       that a target region runs on the GPU (exit 2 if not), then runs each program's three
#       builds with LD_LIBRARY_PATH at the bundle's lib/ and GOMP_DEBUG=1, and prints one line per
#       program: PASS when all three print the expected output and launch the same kernels (by
#       name and count) as stock, else FAIL and what differed; a summary; exit 0 when all pass.
# Environment for run: GPU_CHECK_TIMEOUT (seconds per run, default 120), GPU_CHECK_KEEP=1 (keep
# the unpacked folder and print its path).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,19s/^# \{0,1\}//p' "$0"; }

cmd=${1:-}
shift || true
case $cmd in
  prepare) exec python3 scripts/gpu_check_prepare.py "$@" ;;
  run) ;;
  -h | --help | "") usage; [[ -n $cmd ]]; exit ;;
  *) echo "gpu-check: unknown command '$cmd' (prepare or run; see --help)" >&2; exit 2 ;;
esac

bundle=${1:-target/gpu-check/bundle.tar.xz}
[[ -f $bundle ]] || { echo "gpu-check: no bundle at $bundle (run 'scripts/gpu-check.sh prepare' where GCC 12 is)" >&2; exit 2; }
limit=${GPU_CHECK_TIMEOUT:-120}
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
if [[ ${GPU_CHECK_KEEP:-0} == 1 ]]; then
  echo "gpu-check: unpacked in $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi
tar -xJf "$bundle" -C "$work"
root=$work/gpu-check
lib=$root/lib

echo "gpu-check: $(cat "$root/MANIFEST" | head -n 1)"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu-check: GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
else
  echo "gpu-check: warning: no nvidia-smi on PATH; the runs will tell whether a GPU is usable"
fi
need=$(sed -n 's/^glibc-needed=//p' "$root/MANIFEST")
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [[ -n $need && -n $have ]] && [[ $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1) != "$need" ]]; then
  echo "gpu-check: error: the bundle's programs and libgomp need glibc $need, this machine has $have" >&2
  exit 2
fi

# The gate: GCC 12's libgomp runs target regions on the host even under OMP_TARGET_OFFLOAD=MANDATORY
# when it found no device (the initial device is then device 0), so prove a GPU is used first.
probe=$(LD_LIBRARY_PATH="$lib" OMP_TARGET_OFFLOAD=MANDATORY timeout "$limit" "$root/device_probe" 2>&1) || true
if [[ $probe != *"initial=0"* ]]; then
  echo "gpu-check: error: no usable NVIDIA GPU: a target region ran on the host ($probe)" >&2
  echo "gpu-check: hint: GOMP_DEBUG=1 shows why libgomp-plugin-nvptx found no device; with GPU_CHECK_KEEP=1 the bundle stays unpacked to try: GOMP_DEBUG=1 LD_LIBRARY_PATH=<dir>/gpu-check/lib <dir>/gpu-check/device_probe" >&2
  exit 2
fi
echo "gpu-check: probe: $probe (a target region ran on the GPU)"

# One run of one build (its folder holds prog and any libcorpus.so it links): the exit status in
# $out.meta, stdout in $out, stderr in $out.err.
run_one() {
  local dir=$1 out=$2
  local status=0
  ( cd "$dir" && LD_LIBRARY_PATH="$lib:$dir" OMP_TARGET_OFFLOAD=MANDATORY ACC_DEVICE_TYPE=nvidia \
      GOMP_DEBUG=1 OMP_NUM_THREADS=4 timeout "$limit" ./prog ) >"$out" 2>"$out.err" || status=$?
  echo "$status" >"$out.meta"
  # the nvptx plugin's debug line for every kernel launch: "  <fn>: kernel <name>: launch ..."
  sed -n 's/^.*: kernel \([^:]*\): launch.*$/\1/p' "$out.err" | sort | uniq -c >"$out.launches"
}

pass=0
fail=0
modes=(stock offlink devicejobs)
for dir in "$root"/programs/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  problems=()
  for m in "${modes[@]}"; do
    if [[ ! -x $dir/$m/prog ]]; then
      problems+=("$m: not built")
      continue
    fi
    run_one "$dir/$m" "$dir/$m.out"
    status=$(cat "$dir/$m.out.meta")
    if [[ $status != 0 ]]; then
      problems+=("$m: exit $status: $(tr '\n' ' ' <"$dir/$m.out.err" | cut -c1-160)")
    elif ! cmp -s "$dir/$m.out" "$dir/expected.out"; then
      problems+=("$m: output differs from expected.out: $(tr '\n' ' ' <"$dir/$m.out" | cut -c1-80)")
    fi
  done
  for m in offlink devicejobs; do
    if [[ -f $dir/$m.out && -f $dir/stock.out ]] && ! cmp -s "$dir/stock.out" "$dir/$m.out"; then
      problems+=("$m: output differs from stock's")
    fi
    if [[ -f $dir/$m.out.launches && -f $dir/stock.out.launches ]] &&
      ! cmp -s "$dir/stock.out.launches" "$dir/$m.out.launches"; then
      problems+=("$m: launched other kernels than stock: $(tr -s ' \n' ' ' <"$dir/$m.out.launches" | cut -c1-120)")
    fi
  done
  launches=0
  [[ -f $dir/stock.out.launches ]] && launches=$(awk '{n += $1} END {print n + 0}' "$dir/stock.out.launches")
  if ((${#problems[@]} == 0)); then
    pass=$((pass + 1))
    printf 'PASS %-28s stock, offlink, devicejobs: expected output, the same %d kernel launch(es) on the GPU\n' "$name" "$launches"
  else
    fail=$((fail + 1))
    printf 'FAIL %-28s %s\n' "$name" "$(IFS='; '; echo "${problems[*]}")"
  fi
done
echo "gpu-check: $pass passed, $fail failed (OMP_TARGET_OFFLOAD=MANDATORY, ACC_DEVICE_TYPE=nvidia, timeout ${limit}s)"
((fail == 0))
