#!/usr/bin/env bash
# The PostgreSQL server one ctest run shares (ctest fixture "postgres"):
#   postgres_fixture.sh start DIR   initdb into a new temp dir, start the server
#                                   on a free loopback port (trust for the role
#                                   "ics" only), write DIR/uri_base
#                                   ("postgresql://ics@127.0.0.1:PORT/") and
#                                   DIR/server_dir (where the server lives)
#   postgres_fixture.sh stop DIR    fast shutdown, then remove both
# The server's files live under $TMPDIR (or /tmp), not in DIR: the server
# runs as another user, who may not be able to reach the build directory.
# Tests read DIR from $ICS_TEST_POSTGRES_DIR and create a database each
# (tests/external/metastore_backends.h). As root the server runs as the
# postgres user, since it refuses root.
set -euo pipefail
cmd=${1:?usage: postgres_fixture.sh start|stop DIR}
dir=${2:?usage: postgres_fixture.sh start|stop DIR}

# pg_bin, as_pg, free_port, pg_initdb.
. "$(dirname "$0")/../../scripts/pg_lib.sh"
bin=$(pg_bin) || exit 1

case "$cmd" in
  start)
    if [ -f "$dir/server_dir" ]; then "$0" stop "$dir" || true; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    sdir=$(mktemp -d "${TMPDIR:-/tmp}/ics-test-postgres.XXXXXX")
    chmod 0755 "$sdir"
    echo "$sdir" >"$dir/server_dir"
    cd "$sdir"  # the server's user may not reach the caller's directory
    pg_initdb "$sdir" --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(free_port)
    as_pg "$bin/pg_ctl" -D "$sdir/data" -l "$sdir/server.log" -w -t 60 \
      -o "-p $port -k $sdir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" start \
      >/dev/null || { tail -n 20 "$sdir/server.log" >&2; exit 1; }
    echo "postgresql://ics@127.0.0.1:$port/" >"$dir/uri_base"
    echo "postgres_fixture: server up at $(cat "$dir/uri_base") (log $sdir/server.log)"
    ;;
  stop)
    sdir=$(cat "$dir/server_dir" 2>/dev/null || true)
    cd /  # the server's user may not reach the caller's directory
    if [ -n "$sdir" ] && [ -f "$sdir/data/postmaster.pid" ]; then
      as_pg "$bin/pg_ctl" -D "$sdir/data" -m fast -w -t 60 stop >/dev/null ||
        kill -KILL "$(head -n 1 "$sdir/data/postmaster.pid")" 2>/dev/null || true
    fi
    case "$sdir" in */ics-test-postgres.*) rm -rf "$sdir" ;; esac
    rm -rf "$dir"
    ;;
  *) echo "usage: postgres_fixture.sh start|stop DIR" >&2; exit 2 ;;
esac
