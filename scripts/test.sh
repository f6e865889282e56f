#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test.
#   scripts/test.sh              normal build
#   scripts/test.sh --asan       the same tests under ASan + UBSan
#   scripts/test.sh --tsan       the same tests under TSan
#   scripts/test.sh --asan-pass  the sanitizer pass CI runs on every commit:
#                                ASan + UBSan builds of the fuzz targets and of
#                                the concurrency-heavy suites (ctest label
#                                sanitizer_pass), in build-asan/ like --asan
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
build_dir=build
build_mode=$mode
targets=()
ctest_args=()
case "$mode" in
  --asan) build_dir=build-asan ;;
  --tsan) build_dir=build-tsan ;;
  --asan-pass) build_dir=build-asan; build_mode=--asan; targets=(sanitizer_pass)
               ctest_args=(-L sanitizer_pass) ;;
  "") ;;
  *) echo "usage: $0 [--asan|--tsan|--asan-pass]" >&2; exit 2 ;;
esac

scripts/setup.sh
scripts/build.sh $build_mode "${targets[@]}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp}
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" --timeout 600 "${ctest_args[@]}"
