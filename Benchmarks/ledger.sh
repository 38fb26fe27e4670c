#!/usr/bin/env bash
# Ledger throughput: finds per second recorded and acknowledged from 64 concurrent tasks
# (WAL, synchronous=FULL, group commit), next to SQLite's own commit rate on the same disk in
# the same run (one insert per transaction, WAL, synchronous=FULL), measured twice: by the
# benchmark itself through GRDB, and by the sqlite3 shell.
#
#   Benchmarks/ledger.sh [--tasks 64] [--finds 20000]     (extra options go to geoqr ledger bench)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v sqlite3 >/dev/null || { echo "sqlite3 missing: scripts/install-deps --test" >&2; exit 1; }

swift build -c release --product geoqr >&2
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-ledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== geoqr ledger bench (release build) =="
.build/release/geoqr ledger bench --tasks 64 --finds 20000 --dir "$work/bench" "$@"

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
