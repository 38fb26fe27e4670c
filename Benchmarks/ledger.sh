#!/usr/bin/env bash
# Ledger throughput: finds per second recorded and acknowledged from 64 concurrent tasks
# (WAL, synchronous=FULL, group commit), next to SQLite's own commit rate on the same disk in
# the same run (one insert per transaction, WAL, synchronous=FULL), measured twice: by the
# benchmark itself through GRDB, and by the sqlite3 shell.
#
#   Benchmarks/ledger.sh [--tasks 64] [--finds 20000]     (extra options go to geoqr ledger bench)
#
# With --postgres: the same finds into a PostgreSQL ledger (a PostgreSQL 15 of its own, from
# scripts/with-postgres, fsync and synchronous_commit on), beside pgbench's one-insert-per-commit
# rate on the same server in the same run, with 1 client (each commit waits for its own WAL
# flush: the ceiling of a writer that does not group) and with 64 (PostgreSQL's own grouping of
# concurrent commits).
#
#   Benchmarks/ledger.sh --postgres [--no-build] [--finds 20000]
set -euo pipefail
cd "$(dirname "$0")/.."
postgres=0 build=1 args=()
for arg in "$@"; do
    case $arg in
        --postgres) postgres=1 ;;
        --no-build) build=0 ;;
        *) args+=("$arg") ;;
    esac
done
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
if [ "$postgres" = 1 ]; then
    if [ -z "${GEOQR_TEST_POSTGRES:-}" ]; then exec ./scripts/with-postgres "$0" --postgres --no-build "${args[@]}"; fi
    command -v pgbench >/dev/null || { echo "pgbench missing: apt-get install postgresql-contrib (or postgresql)" >&2; exit 1; }
    base=${GEOQR_TEST_POSTGRES%%\?*} query=${GEOQR_TEST_POSTGRES#"${GEOQR_TEST_POSTGRES%%\?*}"}
    psql -q "$GEOQR_TEST_POSTGRES" -c "CREATE DATABASE ledger_bench" -c "CREATE DATABASE commit_bench"
    echo "== geoqr ledger bench on PostgreSQL $(psql -tA "$GEOQR_TEST_POSTGRES" -c 'SHOW server_version') (release build) =="
    .build/release/geoqr ledger bench --tasks 64 --finds 20000 --store "${base%/*}/ledger_bench$query" "${args[@]}"
    reference=${base%/*}/commit_bench$query
    psql -q "$reference" -c "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, v TEXT)"
    echo "INSERT INTO t (v) VALUES ('row');" >"${TMPDIR:-/tmp}/geoqr-pgbench-$$.sql"
    trap 'rm -f "${TMPDIR:-/tmp}/geoqr-pgbench-$$.sql"' EXIT
    for clients in 1 64; do
        echo "== pgbench: one insert per transaction, $clients client(s), 10 s =="
        pgbench -n -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T 10 -f "${TMPDIR:-/tmp}/geoqr-pgbench-$$.sql" "$reference" 2>&1 \
            | grep -E '^(number of transactions actually processed|latency average|tps)'
    done
    exit 0
fi
command -v sqlite3 >/dev/null || { echo "sqlite3 missing: scripts/install-deps --test" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-ledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== geoqr ledger bench (release build) =="
.build/release/geoqr ledger bench --tasks 64 --finds 20000 --dir "$work/bench" "${args[@]}"

echo "== sqlite3 shell: one insert per transaction, WAL, synchronous=FULL =="
commits=3000
{
    echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    echo "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);"
    for i in $(seq 1 "$commits"); do echo "BEGIN; INSERT INTO t (v) VALUES ('row $i'); COMMIT;"; done
} > "$work/commits.sql"
start=$(date +%s.%N)
sqlite3 "$work/reference.sqlite" < "$work/commits.sql" >/dev/null
end=$(date +%s.%N)
awk -v n="$commits" -v s="$start" -v e="$end" 'BEGIN { printf "sqlite3: %d commits in %.2f s = %.0f commits/s\n", n, e - s, n / (e - s) }'
