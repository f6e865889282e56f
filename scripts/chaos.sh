#!/usr/bin/env bash
# The fault-injection run of the HA cluster: two statestoreds, two catalogds
# on one shared metastore, coordinators with one DDL client each, while the
# active catalogd or statestored is killed (-9) or stopped (SIGSTOP) every
# few seconds. Checks that nothing acknowledged is lost, that no failed
# statement took effect, that no read after SYNC_DDL is stale, that nothing
# crashed and that each pair gets an active member back in time; prints the
# unavailability per fault kind. Exit status 0 when the run passed.
#
#   scripts/chaos.sh [--minutes N] [--metastore sqlite|postgres] [--seed S]
#                    [--runs R] [-- more flags of build/bin/chaos]
# --runs R repeats with seeds S, S+1, ... and stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=3 metastore=sqlite seed=$(date +%s) runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --metastore) metastore=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--minutes N] [--metastore sqlite|postgres] [--seed S] [--runs R] [-- flags]" >&2
       exit 2 ;;
  esac
done
case "$metastore" in sqlite|postgres) ;; *) echo "--metastore: sqlite or postgres" >&2; exit 2 ;; esac

scripts/build.sh chaos >/dev/null
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
for ((r = 0; r < runs; r++)); do
  s=$((seed + r))
  echo "== chaos run $((r + 1))/$runs: seed $s, $metastore, $minutes min"
  build/bin/chaos --seconds="$seconds" --metastore="$metastore" --seed="$s" "$@"
done
