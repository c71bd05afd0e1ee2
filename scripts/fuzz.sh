#!/usr/bin/env bash
# Runs offlink's Jazzer fuzz targets (module fuzz/) and reports the executions per target.
#
#   scripts/fuzz.sh            short run: 8 s of fuzzing per target (about 160 s in all with
#                              each target's start; scripts/test.sh runs it with --jobs 2)
#   scripts/fuzz.sh --long     long run: a fixed number of executions per target, weighted by the
#                              target's speed, 14.5 million in all (RUNS=N: N per target);
#                              about an hour on 2 cores
#   --jobs N                   run N targets at a time (default 1)
#   scripts/fuzz.sh --seconds N [TARGET...]   N seconds per target, only the named targets
#   scripts/fuzz.sh --runs N [TARGET...]      N executions per target
#
# Each target runs in its own JVM with -Xmx512m (the heap bound every offlink command must keep),
# with libFuzzer's -rss_limit_mb and -timeout: an OutOfMemoryError, an RSS over the limit and a
# slow input all count as crashes. A crash stops that target, is saved under
# fuzz/target/fuzz/<Target>/ and makes the script exit 1: turn it into a named regression case by
# copying it to fuzz/src/test/resources/org/offlink/fuzz/<Target>Inputs/<method>/<name>, where
# the normal test run replays it. The corpus grown by a run stays in fuzz/target/fuzz/ and is
# reused by the next run (mvn clean removes it); the committed seeds are read, never written.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=short
seconds=8
runs=
jobs=1
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --long) mode=long; runs=${RUNS:-} ;;
    --short) mode=short ;;
    --seconds) seconds=$2; runs=; shift ;;
    --runs) runs=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: error: unknown option '$1'" >&2; exit 1 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
all=(ElfReaderFuzzTest ArchiveFuzzTest LtoSectionFuzzTest OptsFuzzTest PtxMapFuzzTest
  ImageInspectFuzzTest MkoffloadOptionsFuzzTest RequestDecoderFuzzTest CacheEntryFuzzTest
  BundleManifestFuzzTest)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

work=fuzz/target/fuzz
mkdir -p "$work"
if [ -z "${FUZZ_SKIP_BUILD:-}" ]; then
  nice mvn -B -q -pl fuzz -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; echo "fuzz.sh: error: the build failed" >&2; exit 1; }
fi
# Run from a snapshot of the classes, so that rebuilding the tree while a long run goes on does
# not change classes under the fuzzer's feet.
snap="$PWD/$work/classes.$$"
mkdir -p "$snap"
trap 'rm -rf "$snap"' EXIT
cp -r fuzz/target/test-classes "$snap/fuzz"
cp="$snap/fuzz"
# The reactor's own modules appear in the Maven classpath as their target/classes: every one is
# copied (a fixed list went stale when offlink-runtime split off), and the copies are used.
for classes in $(tr ':' '\n' <fuzz/target/test.classpath | grep '/target/classes$'); do
  m=$(basename "$(dirname "$(dirname "$classes")")")
  cp -r "$classes" "$snap/$m"
  cp="$cp:$snap/$m"
done
cp="$cp:$(tr ':' '\n' <fuzz/target/test.classpath | grep -v '/target/classes$' | paste -sd:)"

java=${JAVA_HOME:+$JAVA_HOME/bin/}java
seeds=fuzz/src/test/resources/org/offlink/fuzz

# Executions per target for --long: proportional to each target's speed (an in-memory parser runs
# some 10^4 inputs a second, a target that writes and opens files 10^2-10^3), 14.5 million in all.
long_runs() {
  case $1 in
    OptsFuzzTest) echo 4000000 ;;
    RequestDecoderFuzzTest) echo 2000000 ;;
    ElfReaderFuzzTest) echo 2600000 ;;
    LtoSectionFuzzTest) echo 2500000 ;;
    MkoffloadOptionsFuzzTest) echo 600000 ;;
    BundleManifestFuzzTest) echo 1000000 ;;
    PtxMapFuzzTest) echo 500000 ;;
    ArchiveFuzzTest) echo 200000 ;;
    CacheEntryFuzzTest) echo 1000000 ;;
    *) echo 100000 ;;
  esac
}

# Runs one target; leaves "<executions> <exit status>" in $work/<target>.result.
run_target() {
  local t=$1 seed_dir corpus log n rc limit
  seed_dir=$(find "$seeds/${t}Inputs" -mindepth 1 -maxdepth 1 -type d | head -1)
  corpus="$work/$t/corpus"
  mkdir -p "$corpus"
  if [ "$mode" = long ] && [ -z "$runs" ]; then
    limit=(-runs="$(long_runs "$t")")
  elif [ -n "$runs" ]; then
    limit=(-runs="$runs")
  else
    limit=(-max_total_time="$seconds")
  fi
  log="$work/$t.log"
  # offlink's code is instrumented for coverage, not the generated protobuf classes (the bundle
  # manifest's), whose reflective accessors would only slow the target down.
  set +e
  (cd "$work/$t" && nice "$java" -Xmx512m -XX:+UseSerialGC -cp "$cp" \
    com.code_intelligence.jazzer.Jazzer --target_class="org.offlink.fuzz.${t%FuzzTest}Fuzzer" \
    --instrumentation_includes='org.offlink.**' \
    --instrumentation_excludes='org.offlink.ltowrapper.report.proto.**' \
    -rss_limit_mb=1536 -timeout=20 -print_final_stats=1 "${limit[@]}" \
    -artifact_prefix="$PWD/" corpus "$OLDPWD/$seed_dir") >"$log" 2>&1
  rc=$?
  set -e
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "${n:-0} $rc" >"$work/$t.result"
}

started=$(date +%s)
running=0
for t in "${targets[@]}"; do
  rm -f "$work/$t.result"
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || :
    running=$((running - 1))
  fi
done
wait || :

status=0
total=0
passed=0
for t in "${targets[@]}"; do
  read -r n rc <"$work/$t.result" || { n=0; rc=1; }
  total=$((total + n))
  if [ "$rc" -eq 0 ]; then verdict=ok; passed=$((passed + 1)); else verdict="CRASH (rc $rc, see $work/$t.log)"; status=1; fi
  printf '%-26s %12s executions  %s\n' "$t" "$n" "$verdict"
done
echo "---"
printf '%-26s %12s executions  (%s run, %d s)\n' total "$total" "$mode" "$(($(date +%s) - started))"
# The plain closing line test runners print: one per target, a crash (or OOM, timeout) fails it.
echo "fuzz: $passed passed, $((${#targets[@]} - passed)) failed"
exit $status
