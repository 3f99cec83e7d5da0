#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server on loopback, for trying the PostgreSQL store by hand and for
# the tests: a fresh cluster in a temporary folder, owned by the `postgres` user, trusting
# loopback connections. Prints the store URL to use.
#
#   scripts/pg-local.sh start [PORT]   start one (default port 54329); prints its URL
#   scripts/pg-local.sh stop  [PORT]   stop it and delete its folder
#
# Needs Debian's postgresql-15 (`apt-get install postgresql-15`); run as root or as postgres.
#
# The cluster's default collation is C (byte order), unless GTIO_PG_ICU_LOCALE names an ICU
# locale (say en-US): then text compares as people read it there, as on most servers set up by
# hand. The store's own columns are C whatever the default; CI runs the tests under en-US to
# check that no answer depends on it. Benchmarks keep C: the limit's table has no collation of
# its own.
set -euo pipefail

action=${1:-start}
port=${2:-54329}
bin=/usr/lib/postgresql/15/bin
folder=${GTIO_PG_FOLDER:-/tmp/gtio-pg-$port}

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

case "$action" in
  start)
    [ -x "$bin/initdb" ] || { echo "pg-local: $bin/initdb not found: install Debian's postgresql-15" >&2; exit 1; }
    if [ -f "$folder/data/postmaster.pid" ]; then
      echo "postgresql://postgres@127.0.0.1:$port/postgres"
      exit 0
    fi
    rm -rf "$folder"
    mkdir -p "$folder"
    chown postgres "$folder" 2>/dev/null || true
    chmod 755 "$folder"
    collation=(--locale=C)
    if [ -n "${GTIO_PG_ICU_LOCALE:-}" ]; then
      collation=(--locale=C.UTF-8 --locale-provider=icu "--icu-locale=$GTIO_PG_ICU_LOCALE")
    fi
    as_postgres "$bin/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 "${collation[@]}" >"$folder/initdb.log"
    # Each line of the server's log names its database: tests that read the log (many run at
    # once, each on a database of its own) read their own lines.
    echo "log_line_prefix = '%m [%p] %d '" >>"$folder/data/postgresql.conf"
    # fsync off: the cluster is thrown away; what the tests check is the store's logic, and
    # benchmarks that quote a limit measure it on this same server.
    as_postgres "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -o \
      "-c listen_addresses=127.0.0.1 -p $port -k $folder -c fsync=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -d "$folder/data" ]; then
      as_postgres "$bin/pg_ctl" -D "$folder/data" -m fast stop >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
    ;;
  *)
    echo "usage: scripts/pg-local.sh start|stop [PORT]" >&2
    exit 64
    ;;
esac
