#!/usr/bin/env bash
# Builds and runs the catalog benchmarks (tests/perf) and prints their
# figures, one line each.
#   scripts/bench_catalog.sh           the issues' sizes (about 3 minutes on 2 cores)
#   scripts/bench_catalog.sh --quick   smaller sizes (under 2 minutes)
# Benchmarks:
#   catalog_load_bench        load a synthetic catalog as catalogd does; topic size
#   partial_fetch_rpc_bench   GetPartialCatalogObject over Thrift vs a bare server
#   ddl_bench                 ALTER TABLE ADD PARTITION / CREATE TABLE per second, durable
#   coordinator_memory_bench  coordinator RSS, full replica vs on demand; fetch latency
# Each binary has --help for its sizes. The issue-4 load figure at full size
# (1,000 tables / 1,000,000 partitions / 10,000,000 files; ~8 GB RAM):
#   build/bin/catalog_load_bench --tables=1000 --partitions=1000000 --files=10000000
# The machine's load average is printed: figures from a shared machine are
# noisy; compare ratios and per-CPU figures rather than absolute rates.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

targets=(catalog_load_bench partial_fetch_rpc_bench ddl_bench coordinator_memory_bench
         coordinator-sim)
scripts/build.sh "${targets[@]}" || exit 1
bin=build/bin

echo "== $(nproc) cpus, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
failed=()
run() {
  echo "== $*"
  local start=$SECONDS
  if ! "$@"; then failed+=("$1"); fi
  echo "== $(basename "$1") took $((SECONDS - start))s"
}

if [ "$quick" = 1 ]; then
  run $bin/catalog_load_bench --tables=200 --partitions=20000 --files=200000
  run $bin/partial_fetch_rpc_bench --partitions=10000 --clients=1,8,32 --seconds=1 --rounds=1
  run $bin/ddl_bench --statements=100 --create_tables=40 --big_table_partitions=5000 \
      --big_table_statements=20
  run $bin/coordinator_memory_bench --tables=200 --partitions=20000 --latency_tables=20 \
      --warm_repeats=2
else
  run $bin/catalog_load_bench --tables=1000 --partitions=100000 --files=1000000
  run $bin/partial_fetch_rpc_bench --partitions=10000 --clients=1,8,32 --seconds=3 --rounds=2
  run $bin/ddl_bench --statements=400 --create_tables=200 --big_table_partitions=10000 \
      --big_table_statements=50
  run $bin/coordinator_memory_bench --tables=1000 --partitions=100000 --files_per_partition=1
fi

echo "== load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED: ${failed[*]}" >&2
  exit 1
fi
