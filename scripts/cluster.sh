#!/usr/bin/env bash
# Local cluster launcher: statestored + catalogd (embedded SQLite metastore,
# or PostgreSQL with --postgres; warehouse on local disk) + one
# coordinator-sim process running N coordinators. Each role has its own log
# and data under the run directory.
#
#   scripts/cluster.sh start [-n N] [--full-replica] [--run-dir DIR] [--tls|--mtls]
#                            [--postgres]
#                            [--statestored-flags "..."] [--catalogd-flags "..."]
#                            [--coordinator-flags "..."]
#   scripts/cluster.sh shell [-c I] [catalog-shell args...]   shell on coordinator I
#   scripts/cluster.sh stop
#   scripts/cluster.sh restart statestored|catalogd|coordinators|postgres
#   scripts/cluster.sh status
#
# Ports (Impala's defaults): statestore 24000, catalogd 26000 (subscriber
# 23020), coordinators 21000+i (subscribers 23000+i).
#
# --postgres: a private PostgreSQL server for the metastore (initdb into
# RUN_DIR/postgres on the first start, loopback only, a free port, trust
# authentication for the role "ics"; run as the postgres user when started
# as root, since the server refuses root); catalogd gets
# --metastore=postgresql://ics@127.0.0.1:PORT/metastore. `stop` stops it
# too (fast shutdown: the data stays for the next start).
#
# --tls: every port speaks TLS with a throwaway CA and certificates made in
# RUN_DIR/certs (scripts/make_certs.sh). --mtls: also mutual TLS; catalogd
# has its own certificate (CN=catalogd), the only identity the statestore
# lets write catalog-update. `shell` passes the matching flags. The debug
# web pages are then HTTPS with the same certificates; `status` prints their
# URLs (curl --cacert RUN_DIR/certs/ca.pem https://127.0.0.1:25020/metrics).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${ICS_BIN:-$ROOT/build/bin}
RUN_DIR=${ICS_RUN_DIR:-$ROOT/run}
cmd=${1:-status}
shift || true

NUM=3
FULL=0
SS_FLAGS=""
CAT_FLAGS=""
CO_FLAGS=""
TLS=0
PG=0
PG_PORT=0
COORD=0
SHELL_ARGS=()
while [ $# -gt 0 ]; do
  if [ "$cmd" = shell ]; then
    case "$1" in
      -c) COORD=$2; shift 2 ;;
      *) SHELL_ARGS+=("$1"); shift ;;
    esac
    continue
  fi
  case "$1" in
    --tls) TLS=1; shift ;;
    --mtls) TLS=2; shift ;;
    -n) NUM=$2; shift 2 ;;
    --full-replica) FULL=1; shift ;;
    --postgres) PG=1; shift ;;
    --run-dir) RUN_DIR=$2; shift 2 ;;
    --statestored-flags) SS_FLAGS=$2; shift 2 ;;
    --catalogd-flags) CAT_FLAGS=$2; shift 2 ;;
    --coordinator-flags) CO_FLAGS=$2; shift 2 ;;
    statestored|catalogd|coordinators|postgres) ROLE=$1; shift ;;
    *) echo "cluster: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$RUN_DIR"
# Settings of the running cluster survive between commands.
CONF="$RUN_DIR/cluster.conf"
if [ "$cmd" != start ] && [ -f "$CONF" ]; then . "$CONF"; fi
CERTS="$RUN_DIR/certs"

# TLS flags for a role (empty without --tls).
tls_flags() {
  [ "$TLS" -ge 1 ] || return 0
  local cert=server
  [ "$TLS" = 2 ] && [ "$1" = catalogd ] && cert=catalogd
  printf -- '--ssl_server_certificate=%s --ssl_private_key=%s --ssl_client_ca_certificate=%s' \
    "$CERTS/$cert.pem" "$CERTS/$cert.key" "$CERTS/ca.pem"
  # The debug web server: HTTPS with the same certificate (no client
  # certificates asked for, even with --mtls).
  printf -- ' --webserver_certificate_file=%s --webserver_private_key_file=%s' \
    "$CERTS/$cert.pem" "$CERTS/$cert.key"
  if [ "$TLS" = 2 ]; then
    printf -- ' --ssl_require_client_certificate'
    [ "$1" = statestored ] && printf -- ' --statestore_catalogd_identity=CN=catalogd'
  fi
  return 0
}

# The role's web page URLs, from the webserver=<port> tokens of its port file.
web_urls() {
  local scheme=http
  [ "$TLS" -ge 1 ] && scheme=https
  grep -o 'webserver=[0-9]*' "$RUN_DIR/$1.port" 2>/dev/null |
    sed "s|webserver=|$scheme://127.0.0.1:|; s|\$|/|" | tr '\n' ' ' || true
}

pid_of() { cat "$RUN_DIR/$1.pid" 2>/dev/null || true; }

# pg_bin, as_pg, free_port, pg_initdb.
. "$ROOT/scripts/pg_lib.sh"
pg_uri() { echo "postgresql://ics@127.0.0.1:$PG_PORT/metastore"; }
alive() { local p; p=$(pid_of "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

# Waits for the role's port file; fails with the log tail if it dies first.
wait_ready() {
  local role=$1 file=$2
  for _ in $(seq 1 300); do
    if [ -s "$file" ]; then return 0; fi
    if ! alive "$role"; then
      echo "cluster: $role failed to start; last lines of $RUN_DIR/$role.log:" >&2
      tail -n 15 "$RUN_DIR/$role.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "cluster: $role did not become ready in 30s (see $RUN_DIR/$role.log)" >&2
  return 1
}

start_role() {
  local role=$1
  if alive "$role"; then echo "cluster: $role already running (pid $(pid_of "$role"))"; return 0; fi
  rm -f "$RUN_DIR/$role.port"
  case "$role" in
    postgres)
      local bin dir=$RUN_DIR/postgres
      bin=$(pg_bin) || return 1
      if [ ! -f "$dir/data/PG_VERSION" ]; then
        mkdir -p "$dir"
        pg_initdb "$dir" >"$RUN_DIR/$role.log" 2>&1 ||
          { echo "cluster: postgres: initdb failed" >&2; tail -n 15 "$RUN_DIR/$role.log" >&2; return 1; }
      fi
      # pg_ctl starts the server detached and waits until it accepts
      # connections; its pid is the first line of postmaster.pid.
      if ! as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
          -o "-p $PG_PORT -k $dir -c listen_addresses=127.0.0.1" start >>"$RUN_DIR/$role.log" 2>&1; then
        echo "cluster: postgres failed to start; last lines of $dir/server.log:" >&2
        tail -n 15 "$dir/server.log" >&2
        return 1
      fi
      head -n 1 "$dir/data/postmaster.pid" >"$RUN_DIR/$role.pid"
      if [ "$("$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U ics -d postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = 'metastore'")" != 1 ]; then
        "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U ics metastore
      fi
      echo "port=$PG_PORT" >"$RUN_DIR/$role.port"
      echo "cluster: postgres up (pid $(pid_of "$role"), $(pg_uri), log $dir/server.log)"
      return 0 ;;
    statestored)
      # shellcheck disable=SC2086
      "$BIN/statestored" --port_file="$RUN_DIR/$role.port" $(tls_flags statestored) $SS_FLAGS \
        >"$RUN_DIR/$role.log" 2>&1 & ;;
    catalogd)
      # shellcheck disable=SC2086
      "$BIN/catalogd" --data_dir="$RUN_DIR/catalogd-data" --port_file="$RUN_DIR/$role.port" \
        --catalog_topic_mode="$( [ "$FULL" = 1 ] && echo full || echo minimal)" \
        $( [ "$PG" = 1 ] && echo "--metastore=$(pg_uri)") \
        $(tls_flags catalogd) $CAT_FLAGS \
        >"$RUN_DIR/$role.log" 2>&1 & ;;
    coordinators)
      # shellcheck disable=SC2086
      "$BIN/coordinator-sim" --num_coordinators="$NUM" --port_file="$RUN_DIR/$role.port" \
        --use_local_catalog="$( [ "$FULL" = 1 ] && echo false || echo true)" \
        $(tls_flags coordinators) $CO_FLAGS \
        >"$RUN_DIR/$role.log" 2>&1 & ;;
  esac
  echo $! >"$RUN_DIR/$role.pid"
  wait_ready "$role" "$RUN_DIR/$role.port" || return 1
  echo "cluster: $role up (pid $(pid_of "$role"), log $RUN_DIR/$role.log)"
}

stop_role() {
  local role=$1 p
  p=$(pid_of "$role")
  if [ -z "$p" ] || ! kill -0 "$p" 2>/dev/null; then rm -f "$RUN_DIR/$role.pid"; return 0; fi
  if [ "$role" = postgres ]; then
    # Fast shutdown: clients are disconnected, the data stays.
    as_pg "$(pg_bin)/pg_ctl" -D "$RUN_DIR/postgres/data" -m fast -w -t 30 stop >>"$RUN_DIR/$role.log" 2>&1 ||
      { echo "cluster: postgres did not stop; killing it" >&2; kill -KILL "$p" 2>/dev/null || true; }
    rm -f "$RUN_DIR/$role.pid"
    echo "cluster: postgres stopped"
    return 0
  fi
  kill -TERM "$p" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$p" 2>/dev/null; then
    echo "cluster: $role did not stop in 10s; killing it" >&2
    kill -KILL "$p" 2>/dev/null || true
  fi
  rm -f "$RUN_DIR/$role.pid"
  echo "cluster: $role stopped"
}

case "$cmd" in
  start)
    for b in statestored catalogd coordinator-sim; do
      [ -x "$BIN/$b" ] || { echo "cluster: $BIN/$b missing; run scripts/build.sh" >&2; exit 1; }
    done
    if [ "$TLS" -ge 1 ] && [ ! -f "$CERTS/ca.pem" ]; then
      "$ROOT/scripts/make_certs.sh" "$CERTS" >/dev/null
    fi
    if [ "$PG" = 1 ]; then
      # Keep the port of an existing server's data across starts.
      PG_PORT=$(sed -n 's/^port=//p' "$RUN_DIR/postgres.port" 2>/dev/null || true)
      [ -n "$PG_PORT" ] && [ "$PG_PORT" != 0 ] || PG_PORT=$(free_port)
    fi
    cat >"$CONF" <<CONF_EOF
NUM=$NUM
FULL=$FULL
TLS=$TLS
PG=$PG
PG_PORT=$PG_PORT
SS_FLAGS="$SS_FLAGS"
CAT_FLAGS="$CAT_FLAGS"
CO_FLAGS="$CO_FLAGS"
CONF_EOF
    if [ "$PG" = 1 ]; then start_role postgres || { "$0" stop >/dev/null; exit 1; }; fi
    start_role statestored || { "$0" stop >/dev/null; exit 1; }
    start_role catalogd || { "$0" stop >/dev/null; exit 1; }
    start_role coordinators || { "$0" stop >/dev/null; exit 1; }
    if [ "$TLS" -ge 1 ]; then
      echo "cluster: web pages over HTTPS, e.g." \
        "curl --cacert $CERTS/ca.pem $(web_urls catalogd | cut -d' ' -f1)metrics"
    fi
    echo "cluster: running with $NUM coordinator(s) ($( [ "$FULL" = 1 ] && echo full-replica || echo on-demand) catalogs$( [ "$TLS" -ge 1 ] && echo ", $( [ "$TLS" = 2 ] && echo mutual ) TLS, certificates in $CERTS")$( [ "$PG" = 1 ] && echo ", metastore $(pg_uri)"))"
    ;;
  shell)
    # The coordinator's CoordinatorService port: line "<i> <port> ..." of its port file.
    port=$(awk -v i="$COORD" '$1 == i { print $2 }' "$RUN_DIR/coordinators.port" 2>/dev/null)
    [ -n "$port" ] || { echo "cluster: coordinator $COORD is not running" >&2; exit 1; }
    ssl=()
    if [ "$TLS" -ge 1 ]; then ssl=(--ssl --ca_cert="$CERTS/ca.pem"); fi
    if [ "$TLS" = 2 ]; then ssl+=(--client_cert="$CERTS/client.pem" --client_key="$CERTS/client.key"); fi
    exec "$BIN/catalog-shell" -i "127.0.0.1:$port" "${ssl[@]}" "${SHELL_ARGS[@]}"
    ;;
  stop)
    stop_role coordinators
    stop_role catalogd
    stop_role statestored
    if [ "$PG" = 1 ]; then stop_role postgres; fi
    ;;
  restart)
    [ -n "${ROLE:-}" ] || { echo "usage: $0 restart statestored|catalogd|coordinators|postgres" >&2; exit 2; }
    stop_role "$ROLE"
    start_role "$ROLE"
    ;;
  status)
    rc=0
    roles="statestored catalogd coordinators"
    if [ "$PG" = 1 ]; then roles="postgres $roles"; fi
    for role in $roles; do
      if alive "$role"; then
        printf "%-13s running  pid %-7s ports %s\n" "$role" "$(pid_of "$role")" \
          "$(tr '\n' ' ' <"$RUN_DIR/$role.port" 2>/dev/null)"
        urls=$(web_urls "$role")
        [ -z "$urls" ] || printf "%-13s web      %s\n" "" "$urls"
      else
        printf "%-13s stopped\n" "$role"
        rc=1
      fi
    done
    exit $rc
    ;;
  *) echo "usage: $0 start|stop|restart ROLE|status [options]" >&2; exit 2 ;;
esac
