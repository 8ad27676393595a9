#!/bin/sh
# Start a throw-away PostgreSQL server for the tests (the recipe of ../shared/RECIPES.md):
# data in $1 (default /tmp/newsloom-pg), port $2 (default 54329), loopback only, a role
# `newsloom` (password `newsloom`) that may create databases. Never fatal: without a server
# the PostgreSQL tests skip and say why.
D=${1:-/tmp/newsloom-pg}
PORT=${2:-54329}

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1; }

BIN=$(find_bin)
if [ -z "$BIN" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y postgresql >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y postgresql >/dev/null 2>&1; }
    BIN=$(find_bin)
fi
if [ -z "$BIN" ] || ! id postgres >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
    echo "pg-up: no PostgreSQL server here; the PostgreSQL tests will skip"
    exit 0
fi
as_pg() { (cd /tmp && runuser -u postgres -- "$@"); }
if [ ! -f "$D/PG_VERSION" ]; then
    mkdir -p "$D" && chown postgres "$D"
    as_pg "$BIN/initdb" -D "$D" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null || { echo "pg-up: initdb failed"; exit 0; }
fi
if ! as_pg "$BIN/pg_ctl" -D "$D" status >/dev/null 2>&1; then
    as_pg "$BIN/pg_ctl" -D "$D" -l "$D/server.log" -w \
        -o "-k /tmp -p $PORT -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
        || { echo "pg-up: the server did not start (see $D/server.log)"; exit 0; }
fi
if ! as_pg psql -h /tmp -p "$PORT" -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'newsloom'" | grep -q 1; then
    as_pg psql -h /tmp -p "$PORT" -qc "CREATE ROLE newsloom LOGIN PASSWORD 'newsloom' CREATEDB" \
        || echo "pg-up: could not create the test role"
fi
echo "pg-up: PostgreSQL on 127.0.0.1:$PORT"
