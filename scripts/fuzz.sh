#!/usr/bin/env bash
# Builds the fuzz targets (tests/fuzz) with -DICS_FUZZ=ON in build-fuzz/ and
# fuzzes each for a while.
#
#   scripts/fuzz.sh [--seconds N] [--only name,...] [--jobs J]
#
#   --seconds N   fuzzing time per target (default 60)
#   --only LIST   comma-separated targets (default: all); "sql" means sql_fuzz
#   --jobs J      build jobs, and libFuzzer processes per target (-fork=J) when
#                 J > 1 (default 1)
#
# Each target works on build-fuzz/corpus/<target>, seeded from the checked-in
# tests/fuzz/corpus/<target> and kept between runs (so longer runs build on
# earlier ones); logs go to build-fuzz/fuzz-logs/<target>.log. The first crash
# (or leak, timeout, OOM) stops the run and prints where the input was saved
# and how to reproduce it. At the end: per target, executions, final coverage
# (cov/ft from libFuzzer's last status line) and corpus size.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
only=""
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "usage: $0 [--seconds N] [--only name,...] [--jobs J]" >&2; exit 2 ;;
  esac
done

ALL_TARGETS=(
  catalog_service_fuzz hms_fuzz metastore_services_fuzz statestore_service_fuzz
  statestore_ha_fuzz subscriber_fuzz coordinator_service_fuzz catalogd_reply_fuzz
  topic_value_fuzz partition_stats_fuzz file_desc_fuzz thrift_struct_fuzz
  sql_fuzz hms_filter_fuzz partition_filter_fuzz column_type_fuzz metastore_uri_fuzz
  security_text_fuzz data_root_path_fuzz
)
# Targets whose service state lives across inputs (tests/fuzz/fuzz_rpc.h,
# Recycled): almost every input leaves allocations behind on purpose, which
# would make libFuzzer run a full leak scan after nearly every input (10x
# slower). They run with -detect_leaks=0; ASan still reports leaks at exit.
STATEFUL=(catalog_service_fuzz hms_fuzz metastore_services_fuzz statestore_service_fuzz
          statestore_ha_fuzz coordinator_service_fuzz)
targets=()
if [ -z "$only" ]; then
  targets=("${ALL_TARGETS[@]}")
else
  IFS=, read -r -a wanted <<< "$only"
  for w in "${wanted[@]}"; do
    [[ "$w" == *_fuzz ]] || w="${w}_fuzz"
    found=0
    for t in "${ALL_TARGETS[@]}"; do [ "$t" = "$w" ] && found=1; done
    if [ $found -eq 0 ]; then
      echo "fuzz: unknown target '$w' (targets: ${ALL_TARGETS[*]})" >&2
      exit 2
    fi
    targets+=("$w")
  done
fi

scripts/setup.sh
command -v clang++ >/dev/null || { echo "fuzz: clang++ is required" >&2; exit 1; }
export CC=clang CXX=clang++
build_dir=build-fuzz
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DICS_FUZZ=ON >/dev/null
fi
cmake --build "$build_dir" -j "${ICS_BUILD_JOBS:-$jobs}" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build_dir/fuzz-logs"
summary=()

print_summary() {
  printf '\n%-26s %6s %12s %8s %8s %8s\n' target secs executions cov ft corpus
  for line in "${summary[@]}"; do printf '%s\n' "$line"; done
}

for t in "${targets[@]}"; do
  corpus="$build_dir/corpus/$t"
  artifacts="$build_dir/crashes/$t"
  log="$build_dir/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$artifacts"
  cp -n tests/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "tests/fuzz/dict/$t.dict" ] && args+=(-dict="tests/fuzz/dict/$t.dict")
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs")
  for s in "${STATEFUL[@]}"; do [ "$s" = "$t" ] && args+=(-detect_leaks=0); done
  echo "fuzz: $t for ${seconds}s (log $log)"
  start=$(date +%s)
  rc=0
  "$build_dir/bin/$t" "${args[@]}" "$corpus" >"$log" 2>&1 || rc=$?
  took=$(( $(date +%s) - start ))
  # The last status line ("#123 DONE cov: 45 ft: 67 corp: 8/1Kb ..." or, in
  # fork mode, "#123: cov: 45 ft: 67 corp: 8 ...").
  status=$(grep -E '^#[0-9]+:?[[:space:]]' "$log" | tail -1 || true)
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  [ -n "$execs" ] || execs=$(sed -E 's/^#([0-9]+).*/\1/' <<< "$status")
  cov=$(grep -oE 'cov: [0-9]+' <<< "$status" | grep -oE '[0-9]+' || echo "?")
  ft=$(grep -oE 'ft: [0-9]+' <<< "$status" | grep -oE '[0-9]+' || echo "?")
  files=$(find "$corpus" -type f | wc -l)
  summary+=("$(printf '%-26s %6s %12s %8s %8s %8s' "$t" "$took" "${execs:-?}" "$cov" "$ft" "$files")")
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t FAILED (exit $rc); the end of its log:" >&2
    tail -40 "$log" >&2
    input=$(grep -oE '(Test unit|artifact) written to [^ ]+' "$log" | tail -1 | awk '{print $NF}' || true)
    if [ -n "$input" ]; then
      echo "fuzz: the input is $input" >&2
      echo "fuzz: reproduce with: $build_dir/bin/$t $input" >&2
    else
      echo "fuzz: no input was saved (see $log)" >&2
    fi
    print_summary
    exit 1
  fi
done
print_summary
