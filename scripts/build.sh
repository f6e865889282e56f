#!/usr/bin/env bash
# Configures and builds the whole tree.
#   scripts/build.sh            release-with-debug-info build in build/
#   scripts/build.sh --asan     ASan + UBSan build in build-asan/
#   scripts/build.sh --tsan     TSan build in build-tsan/
# Extra arguments after the mode are passed to the build tool (e.g. a target).
# Uses clang when installed (its -Wthread-safety checks the lock annotations),
# Ninja, and ccache when present.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
build_dir=build
sanitize=""
case "$mode" in
  --asan) build_dir=build-asan; sanitize=address; shift ;;
  --tsan) build_dir=build-tsan; sanitize=thread; shift ;;
  "" ) ;;
  --*) echo "usage: $0 [--asan|--tsan] [targets...]" >&2; exit 2 ;;
  *) ;;
esac

if command -v clang++ >/dev/null; then
  export CC=${CC:-clang} CXX=${CXX:-clang++}
fi
jobs=${ICS_BUILD_JOBS:-$(nproc)}

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DICS_SANITIZE="$sanitize" >/dev/null
fi
start=$(date +%s)
cmake --build "$build_dir" -j "$jobs" ${1:+--target "$@"}
echo "build: $build_dir ready in $(( $(date +%s) - start ))s"
