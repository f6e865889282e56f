# Shell helpers for the private PostgreSQL servers of scripts/cluster.sh
# (--postgres) and the tests' fixture (tests/external/postgres_fixture.sh).
# Source it; it defines functions only.

# PostgreSQL's server binaries (Debian: /usr/lib/postgresql/<major>/bin).
pg_bin() {
  local d
  d=$(pg_config --bindir 2>/dev/null || true)
  if [ -x "$d/postgres" ]; then echo "$d"; return 0; fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -x "$d/postgres" ] || { echo "PostgreSQL is not installed (scripts/setup.sh)" >&2; return 1; }
  echo "$d"
}

# The server refuses to run as root: as root, run it as the postgres user.
as_pg() {
  if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else "$@"; fi
}

# A loopback TCP port that was free a moment ago.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# initdb into DIR/data (DIR is given to the server's user), trust for the
# role "ics" only, over the Unix socket and loopback. Extra initdb flags
# follow DIR. Its output goes to stdout.
pg_initdb() {
  local dir=$1 bin; shift
  bin=$(pg_bin) || return 1
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
  as_pg test -w "$dir" || { echo "the postgres user cannot write $dir" \
    "(its parent directories must be searchable by other users)" >&2; return 1; }
  as_pg "$bin/initdb" -D "$dir/data" -U ics --auth=trust -E UTF8 --locale=C "$@" || return 1
  printf 'local all ics trust\nhost all ics 127.0.0.1/32 trust\n' >"$dir/data/pg_hba.conf"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir/data/pg_hba.conf"; fi
}
