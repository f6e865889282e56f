#!/usr/bin/env bash
# The ctest smoke run of one fuzz target (registered by tests/fuzz/CMakeLists.txt):
#   smoke.sh <fuzzer> <seed dir> <work dir> <seconds> [dict]
# Copies the checked-in seeds into <work dir>/corpus (the source tree is only
# read), runs every seed, then fuzzes for <seconds> in total. Fails when the
# fuzzer finds a crash, leak, timeout or OOM; the input is then in
# <work dir>/artifacts/.
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4 dict=${5:-}
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"
args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
      -artifact_prefix="$work/artifacts/")
if [ -n "$dict" ]; then args+=(-dict="$dict"); fi
exec "$fuzzer" "${args[@]}" "$work/corpus"
