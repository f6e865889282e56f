#!/usr/bin/env bash
# The benchmark suite: installs what is missing, builds, runs every scenario
# of the benchmark issue with repeated runs and same-run baselines, and
# writes results/<date>-<commit>/report.md plus PNG plots.
#
#   scripts/bench.sh [--quick|--full] [--out DIR] [--repeats N]
#                    [--only s1,s2,...] [--bin DIR]
#
#   --quick      small sizes, 3 repeats; under 5 minutes on 2 cores (default)
#   --full       the issue's sizes (N up to 500 coordinators, up to 10^6
#                partitions, 2,000 subscribers); takes much longer
#   --out DIR    results directory (default results/<UTC date>-<commit>)
#   --repeats N  runs of every scenario (min/median/max are over these)
#   --only LIST  scenarios to run: s1 propagation (ours, statestore fan-out,
#                Redis, bare Thrift UpdateState), s2 partial fetch, s3 load + s4 topic size (one
#                bench), s5 statestore scale, s6 coordinator memory, s7 codecs,
#                s8 the real path (HMS endpoint, real files on tmpfs, REFRESH
#                through a coordinator, catalogd RSS from /proc), s9 catalogd
#                failover (two HA catalogds, kill -9 of the active during a
#                DDL storm; default and fast timings)
#   --bin DIR    use binaries already built in DIR instead of building build/
#   --max-partitions P  skip s3 and s8 sizes above P (full mode goes to 10^6, which
#                needs ~8 GB RAM and a long metastore write)
#
# Baseline for s1: a redis-server started here on 127.0.0.1 (free port, own
# temp dir), killed at the end. Raw outputs are kept under <out>/raw/.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=quick
out=""
repeats=""
only="s1,s2,s3,s5,s6,s7,s8,s9"
bin=""
max_partitions=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --out) out="$2"; shift ;;
    --repeats) repeats="$2"; shift ;;
    --only) only="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    --max-partitions) max_partitions="$2"; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
    *) echo "usage: $0 [--quick|--full] [--out DIR] [--repeats N] [--only s1,..] [--bin DIR]" \
            "[--max-partitions P]" >&2
       exit 2 ;;
  esac
  shift
done
if [ -z "$repeats" ]; then repeats=3; fi
case "$repeats" in ''|*[!0-9]*|0) echo "bench: --repeats must be a positive integer" >&2; exit 2 ;; esac
want() { [[ ",$only," == *",$1,"* ]]; }

t_start=$(date +%s)
scripts/setup.sh || exit 1
targets=(statestored catalogd coordinator-sim statestore_bench redis_fanout_bench propagation_bench
         thrift_fanout_bench
         partial_fetch_rpc_bench catalog_load_bench coordinator_memory_bench codec_bench
         real_path_bench ha_failover_bench)
if [ -z "$bin" ]; then
  scripts/build.sh "${targets[@]}" || exit 1
  bin=build/bin
fi
for t in "${targets[@]}"; do
  [ -x "$bin/$t" ] || { echo "bench: $bin/$t is missing" >&2; exit 1; }
done
bin=$(cd "$bin" && pwd)
t_built=$(date +%s)

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit-dirty"; fi
if [ -z "$out" ]; then out="results/$(date -u +%Y%m%dT%H%MZ)-$commit"; fi
mkdir -p "$out/raw" || exit 1
out=$(cd "$out" && pwd)
echo "bench: mode $mode, $repeats repeats, results in $out"

# Sizes per mode.
if [ "$mode" = quick ]; then
  s1_sizes=10,100;           s1_rounds=100; s1_sync=5
  s2_args=(--partitions=10000 --clients=1,8,32 --seconds=0.5 --rounds=1)
  s3_sizes=(2500 5000 10000); s3_files_per_part=10; s3_tables=25
  s5_sizes=100,250,500;      s5_seconds=2
  s6_args=(--tables=100 --partitions=5000 --latency_tables=10 --warm_repeats=2)
  s7_min_time=0.02
  s8_runs=("10000 1" "10000 10")
  s9_args=(--coordinators=4 --tables=50)
else
  s1_sizes=10,100,500;       s1_rounds=300; s1_sync=20
  s2_args=(--partitions=10000 --clients=1,8,32 --seconds=3 --rounds=2)
  s3_sizes=(10000 100000 300000 1000000); s3_files_per_part=10; s3_tables=1000
  s5_sizes=100,500,1000,2000; s5_seconds=10
  s6_args=(--tables=1000 --partitions=100000 --files_per_partition=1)
  s7_min_time=0.5
  s8_runs=("10000 1" "10000 10" "100000 1" "100000 10" "1000000 1")
  s9_args=(--coordinators=16 --tables=200)
fi

# Machine facts for the report.
{
  echo "mode=$mode"
  echo "repeats=$repeats"
  echo "commit=$commit"
  echo "date=$(date -u +%FT%TZ)"
  echo "cores=$(nproc)"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory_gb=$(awk '/MemTotal/ {printf "%.1f", $2/1048576}' /proc/meminfo)"
  echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "build_seconds=$((t_built - t_start))"
  echo "redis=$(redis-server --version | head -1)"
  echo "s3_max_partitions=${max_partitions:-none}"
} > "$out/meta.txt"

failed=()
# run <scenario> <label> <repeat> <command...>: output to raw/<scenario>/<label>.r<repeat>.txt
run() {
  local scen=$1 label=$2 rep=$3; shift 3
  mkdir -p "$out/raw/$scen"
  local f="$out/raw/$scen/$label.r$rep.txt" t0=$SECONDS
  if ! "$@" > "$f" 2> "$out/raw/$scen/$label.r$rep.err"; then
    failed+=("$scen/$label.r$rep")
    echo "bench:   $scen/$label run $rep FAILED (see $f and .err)" >&2
  fi
  echo "bench:   $scen/$label run $rep: $((SECONDS - t0))s"
}

redis_pid=""
redis_dir=""
cleanup() {
  if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; fi
  if [ -n "$redis_dir" ]; then rm -rf "$redis_dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_redis() {
  redis_dir=$(mktemp -d /tmp/ics-bench-redis.XXXXXX)
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  redis-server --bind 127.0.0.1 --port "$port" --dir "$redis_dir" --save "" --appendonly no \
      --protected-mode yes --logfile "$redis_dir/redis.log" --maxclients 10000 &
  redis_pid=$!
  for _ in $(seq 100); do
    if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
      redis_port=$port
      return 0
    fi
    sleep 0.1
  done
  echo "bench: redis-server did not start" >&2
  return 1
}

# Each repeat runs every chosen scenario once, so the baselines of a repeat
# share its machine conditions.
for rep in $(seq "$repeats"); do
  echo "bench: repeat $rep of $repeats ($(( $(date +%s) - t_built ))s so far)"
  if want s1; then
    run s1 ours "$rep" "$bin/propagation_bench" --sizes=$s1_sizes --rounds=$s1_rounds \
        --sync_rounds=$s1_sync --statestored="$bin/statestored" --catalogd="$bin/catalogd"
    # The same payload as our DDL delta (n10 median; 256 bytes if unknown).
    payload=$(sed -n 's/^propagation n[0-9]*_payload_bytes: \([0-9.]*\).*/\1/p' \
                "$out/raw/s1/ours.r$rep.txt" | head -1 | cut -d. -f1)
    payload=${payload:-256}
    [ "$payload" -ge 16 ] 2>/dev/null || payload=16
    if [ -z "$redis_pid" ]; then start_redis || failed+=("redis-server"); fi
    if [ -n "$redis_pid" ]; then
      run s1 redis "$rep" "$bin/redis_fanout_bench" --port="$redis_port" --sizes=$s1_sizes \
          --rounds=$s1_rounds --payload_bytes="$payload"
    fi
    run s1 statestore "$rep" "$bin/statestore_bench" --statestored="$bin/statestored" \
        --sizes=$s1_sizes --rounds=$s1_rounds --payload_bytes="$payload" --idle=0 --join=0
    # The same with every update waiting for its reply (as for subscribers
    # that do not accept oneway updates, e.g. Impala's).
    run s1 statestore_replied "$rep" "$bin/statestore_bench" --statestored="$bin/statestored" \
        --sizes=$s1_sizes --rounds=$s1_rounds --payload_bytes="$payload" --idle=0 --join=0 \
        --oneway=false
    # The floor of Impala's request/response UpdateState protocol: one bare
    # Thrift sender, no broker (tests/bench/thrift_fanout_bench.cc).
    run s1 thrift "$rep" "$bin/thrift_fanout_bench" --sizes=$s1_sizes --rounds=$s1_rounds \
        --payload_bytes="$payload"
  fi
  if want s2; then
    run s2 fetch "$rep" "$bin/partial_fetch_rpc_bench" "${s2_args[@]}" --big_buffers=false
  fi
  if want s3; then
    for p in "${s3_sizes[@]}"; do
      if [ -n "$max_partitions" ] && [ "$p" -gt "$max_partitions" ]; then continue; fi
      tables=$s3_tables
      if [ "$tables" -gt "$p" ]; then tables=$p; fi
      run s3 "p$p" "$rep" "$bin/catalog_load_bench" --tables="$tables" --partitions="$p" \
          --files=$((p * s3_files_per_part))
    done
  fi
  if want s5; then
    run s5 idle "$rep" "$bin/statestore_bench" --statestored="$bin/statestored" --sizes= \
        --idle=$s5_sizes --idle_seconds=$s5_seconds
  fi
  if want s6; then
    run s6 coordmem "$rep" "$bin/coordinator_memory_bench" "${s6_args[@]}" \
        --coordinator_sim="$bin/coordinator-sim"
  fi
  if want s8; then
    for pf in "${s8_runs[@]}"; do
      read -r p f <<< "$pf"
      if [ -n "$max_partitions" ] && [ "$p" -gt "$max_partitions" ]; then continue; fi
      run s8 "p${p}_f${f}" "$rep" "$bin/real_path_bench" --partitions="$p" --tables=1 \
          --files_per_partition="$f" --statestored="$bin/statestored" --catalogd="$bin/catalogd" \
          --coordinator_sim="$bin/coordinator-sim" --refresh_rounds=3
    done
  fi
  if want s9; then
    run s9 failover "$rep" "$bin/ha_failover_bench" --rounds=1 "${s9_args[@]}" \
        --statestored="$bin/statestored" --catalogd="$bin/catalogd" \
        --coordinator_sim="$bin/coordinator-sim"
  fi
  if want s7; then
    run s7 codec "$rep" "$bin/codec_bench" --benchmark_format=json \
        --benchmark_min_time=$s7_min_time
  fi
done
cleanup
redis_pid=""
redis_dir=""

t_end=$(date +%s)
{
  echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "bench_seconds=$((t_end - t_built))"
  echo "total_seconds=$((t_end - t_start))"
  echo "failed=${failed[*]:-}"
} >> "$out/meta.txt"

python3 scripts/bench/report.py "$out" || failed+=("report")
echo "bench: benchmarks took $((t_end - t_built))s (build and setup $((t_built - t_start))s)"
echo "bench: report $out/report.md"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: FAILED: ${failed[*]}" >&2
  exit 1
fi
