#!/usr/bin/env bash
# Runs offlink's Jazzer fuzz targets (module fuzz/) and reports the executions per target.
#
#   scripts/fuzz.sh            short run: about 8 s per target (about a minute in all), as in
#                              scripts/test.sh
#   scripts/fuzz.sh --long     long run: RUNS executions per target (default 1,500,000, i.e. more
#                              than 10^7 over the 7 targets); hours on a small machine
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
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --long) mode=long; runs=${RUNS:-1500000} ;;
    --short) mode=short ;;
    --seconds) seconds=$2; runs=; shift ;;
    --runs) runs=$2; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: error: unknown option '$1'" >&2; exit 1 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
all=(ElfReaderFuzzTest ArchiveFuzzTest LtoSectionFuzzTest OptsFuzzTest PtxMapFuzzTest
  ImageInspectFuzzTest MkoffloadOptionsFuzzTest)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

work=fuzz/target/fuzz
mkdir -p "$work"
if [ -z "${FUZZ_SKIP_BUILD:-}" ]; then
  nice mvn -B -q -pl fuzz -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; echo "fuzz.sh: error: the build failed" >&2; exit 1; }
fi
cp="$PWD/fuzz/target/test-classes:$(cat fuzz/target/test.classpath)"
for m in section-streamer accel-compiler-bridge; do cp="$cp:$PWD/$m/target/classes"; done

java=${JAVA_HOME:+$JAVA_HOME/bin/}java
seeds=fuzz/src/test/resources/org/offlink/fuzz
status=0
total=0
summary=()
for t in "${targets[@]}"; do
  seed_dir=$(find "$seeds/${t}Inputs" -mindepth 1 -maxdepth 1 -type d | head -1)
  corpus="$work/$t/corpus"
  mkdir -p "$corpus"
  if [ -n "$runs" ]; then limit=(-runs="$runs"); else limit=(-max_total_time="$seconds"); fi
  log="$work/$t.log"
  set +e
  (cd "$work/$t" && nice "$java" -Xmx512m -XX:+UseSerialGC -cp "$cp" \
    com.code_intelligence.jazzer.Jazzer --target_class="org.offlink.fuzz.$t" \
    --instrumentation_includes='org.offlink.**' \
    -rss_limit_mb=1536 -timeout=20 -print_final_stats=1 "${limit[@]}" \
    -artifact_prefix="$PWD/" corpus "$OLDPWD/$seed_dir") >"$log" 2>&1
  rc=$?
  set -e
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  n=${n:-0}
  total=$((total + n))
  if [ $rc -eq 0 ]; then verdict=ok; else verdict="CRASH (rc $rc, see $log)"; status=1; fi
  summary+=("$(printf '%-26s %12s executions  %s' "$t" "$n" "$verdict")")
  echo "${summary[-1]}"
done
echo "---"
printf '%-26s %12s executions  (%s run)\n' total "$total" "$mode"
exit $status
