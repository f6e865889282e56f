#!/usr/bin/env bash
# The README's main job: install what is missing, build, start a local
# cluster (statestored + catalogd on the embedded SQLite metastore + 3
# coordinators), load a TPC-DS-like demo warehouse through the system, and
# walk through what it does. Leaves the cluster running.
#   scripts/demo.sh [--partitions N] [--rows R] [--fresh]
# --fresh wipes the previous run directory first; otherwise re-running
# reuses the running cluster and skips loading data that is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
PARTITIONS=60
ROWS=5
FRESH=0
while [ $# -gt 0 ]; do
  case "$1" in
    --partitions) PARTITIONS=$2; shift 2 ;;
    --rows) ROWS=$2; shift 2 ;;
    --fresh) FRESH=1; shift ;;
    *) echo "usage: $0 [--partitions N] [--rows R] [--fresh]" >&2; exit 2 ;;
  esac
done
export ICS_RUN_DIR=${ICS_RUN_DIR:-$PWD/run}
SHELL_BIN=build/bin/catalog-shell
C0=127.0.0.1:21000
C1=127.0.0.1:21001
C2=127.0.0.1:21002

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
sql() {  # sql <coordinator> <statements...>: echo and run through the shell
  local coord=$1; shift
  printf '\033[2m[%s] %s\033[0m\n' "$coord" "$*"
  "$SHELL_BIN" -i "$coord" --quiet -q "$*"
}

step "setup and build"
scripts/setup.sh
scripts/build.sh

if [ "$FRESH" = 1 ]; then scripts/cluster.sh stop >/dev/null 2>&1 || true; rm -rf "$ICS_RUN_DIR"; fi
step "start the local cluster (run dir $ICS_RUN_DIR)"
if scripts/cluster.sh status >/dev/null 2>&1; then
  echo "cluster already running; reusing it"
else
  scripts/cluster.sh stop >/dev/null 2>&1 || true
  scripts/cluster.sh start -n 3
fi
scripts/cluster.sh status

step "load the demo warehouse (tpcds: 4 dimension tables, 2 fact tables x $PARTITIONS date partitions)"
if "$SHELL_BIN" -i "$C0" --quiet -q "SHOW DATABASES LIKE 'tpcds'" | grep -q tpcds; then
  echo "tpcds already loaded; skipping (use --fresh to rebuild)"
else
  sqlfile="$ICS_RUN_DIR/demo.sql"
  python3 scripts/gen_demo_sql.py --partitions "$PARTITIONS" --rows "$ROWS" >"$sqlfile"
  total=$(grep -c ';$' "$sqlfile")
  # Run statement by statement to show progress.
  python3 - "$SHELL_BIN" "$C0" "$sqlfile" "$total" <<'PY'
import subprocess, sys, time
t0 = time.time()
shell, coord, path, total = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
stmts = [s for s in open(path).read().split(";\n") if s.strip()]
batch, done = [], 0
def flush():
    global batch, done
    if not batch:
        return
    r = subprocess.run([shell, "-i", coord, "--quiet", "-q", ";\n".join(["USE tpcds"] + batch) if done else ";\n".join(batch)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("demo load failed: " + r.stderr.strip())
    done += len(batch)
    batch = []
    width = 40
    filled = int(width * done / total)
    sys.stdout.write("\r  [%s%s] %d/%d statements" % ("#" * filled, "." * (width - filled), done, total))
    sys.stdout.flush()
for s in stmts:
    batch.append(s)
    if len(batch) >= 20:
        flush()
flush()
print("\n  loaded %d statements in %.1fs" % (done, time.time() - t0))
PY
fi

step "1. a DDL on coordinator 0 with SYNC_DDL is visible on coordinators 1 and 2 when it returns"
sql "$C0" "SET SYNC_DDL=1; CREATE TABLE IF NOT EXISTS tpcds.promotion (p_promo_sk BIGINT, p_promo_name STRING) STORED AS TEXTFILE"
sql "$C1" "SHOW TABLES IN tpcds LIKE 'promo*'"
sql "$C2" "SHOW TABLES IN tpcds LIKE 'promo*'"

step "2. on-demand fetch: coordinator 2 loads table metadata only when a statement needs it"
sql "$C2" "DESCRIBE tpcds.store_sales"
sql "$C2" "SHOW PARTITIONS tpcds.web_returns" | tail -n 6

step "3. INSERT writes a real data file and tells catalogd (UpdateCatalog)"
sql "$C1" "SET SYNC_DDL=1; INSERT INTO tpcds.promotion VALUES (1, 'spring sale'), (2, 'clearance'), (3, NULL)"
sql "$C0" "SHOW FILES IN tpcds.promotion"

step "4. COMPUTE STATS scans the data files (row counts, NDV with HyperLogLog, nulls, widths)"
sql "$C0" "COMPUTE STATS tpcds.store_sales"
sql "$C1" "SHOW COLUMN STATS tpcds.store_sales"

step "5. EXPLAIN prunes partitions using predicates on partition columns"
sql "$C2" "EXPLAIN SELECT ss_item_sk, ss_sales_price FROM tpcds.store_sales WHERE ss_sold_date_sk BETWEEN 2450820 AND 2450829 AND ss_quantity > 10"

step "the cluster keeps running"
cat <<EOF2
  Shell:   $SHELL_BIN -i $C0                 (interactive; -q "SQL" or -f file.sql for batch)
  Try:     $SHELL_BIN -i $C1 -q "SHOW TABLE STATS tpcds.store_sales"
  Logs:    $ICS_RUN_DIR/{statestored,catalogd,coordinators}.log
  Ports:   statestore 24000, catalogd 26000, coordinators 21000-21002
  Web:     http://127.0.0.1:25010 (statestored)  :25020 (catalogd)  :25000-25002 (coordinators)
  Also:    Hive Metastore endpoint 127.0.0.1:9083, partition/table services 127.0.0.1:26100
  Status:  scripts/cluster.sh status
  Stop:    scripts/cluster.sh stop
EOF2
