#!/usr/bin/env bash
# Hunt server throughput (issue 5 §7), from one run against a release `geoqr serve` on
# loopback with a fresh data directory (ledger WAL, synchronous=FULL, group commit):
#   - read endpoints/s: the hunt, caches from a place (signed in), caches, leaderboard, me;
#     64 connections (wrk)
#   - link claims/s with p50/p99 at 64 connections, every claim a new find (thousands of
#     players × the demo hunt's 5 caches); then the same claims again: idempotent repeats
#   - photo claims with a 12 MP, ~3 MB JPEG (code of A1, EXIF GPS at A1), 1 and 2 connections
# The server runs with --load-test (127.0.0.1 only, no rate limits, bcrypt cost 4 for the
# test players' PINs): see `geoqr serve --help`.
#
#   Benchmarks/server.sh [--quick] [--no-build] [--postgres [--two-servers]]
#   (--quick: a few seconds a phase)
#
# --postgres: the ledger in a PostgreSQL 15 of its own (scripts/with-postgres), through
# GEOQR_STORE. --two-servers: a second `geoqr serve` on the same database and data folder; each
# phase then runs two wrk processes at once, half the connections and half the players each,
# one at each server, and reports their sum (latencies: the worse of the two).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0 build=1 postgres=0 two=0
for arg in "$@"; do
    case $arg in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        --postgres) postgres=1 ;;
        --two-servers) two=1 postgres=1 ;;
        *) echo "usage: $0 [--quick] [--no-build] [--postgres [--two-servers]]" >&2; exit 2 ;;
    esac
done
command -v wrk >/dev/null || { echo "wrk missing: scripts/install-deps --test" >&2; exit 1; }
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
if [ "$postgres" = 1 ]; then
    if [ -z "${GEOQR_TEST_POSTGRES:-}" ]; then exec ./scripts/with-postgres "$0" "$@" --no-build; fi
    base=${GEOQR_TEST_POSTGRES%%\?*}
    psql -q "$GEOQR_TEST_POSTGRES" -c "CREATE DATABASE server_bench_$$"
    export GEOQR_STORE="${base%/*}/server_bench_$$${GEOQR_TEST_POSTGRES#"$base"}"
fi
source Benchmarks/load/serve.sh

# Enough claimers that every claim in the "new finds" phase is one (5 caches each): up to
# 10,000 finds/s. The table reports the finds/s that really were new finds.
if [ "$quick" = 1 ]; then secs=4 claimers=8000 photos=60; else secs=20 claimers=40000 photos=400; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-server-bench.XXXXXX")
SECOND_PID=
trap '[ -z "$SECOND_PID" ] || { kill -TERM "$SECOND_PID"; wait "$SECOND_PID"; } 2>/dev/null; serve_stop; rm -rf "$work"' EXIT
serve_demo "$work/data" "$work"
if [ "$two" = 1 ]; then
    first=$SERVER_PID
    port_b=$(free_port)
    serve_start "$work/data" "$port_b" "$work/serve-b.log"
    SECOND_PID=$SERVER_PID SERVER_PID=$first url_b=http://127.0.0.1:$port_b
    echo "second server pid $SECOND_PID on $url_b; both on ${GEOQR_STORE%%:*}://… (PostgreSQL)"
fi
echo "server pid $SERVER_PID on $url; photo $(stat -c %s "$work/photo.jpg") bytes; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

results=$work/results.txt
run_wrk() {   # LABEL THREADS CONNECTIONS SECONDS SCRIPT PLAYERS ARGS... THREADS
    if [ "$two" = 1 ] && [ "$3" -gt 1 ]; then run_pair "$@"; return; fi
    local label=$1 threads=$2 conns=$3 seconds=$4 script=$5; shift 5
    GEOQR_LABEL=$label wrk -t"$threads" -c"$conns" -d"${seconds}s" --timeout 10s -s "Benchmarks/load/$script" "$url" -- "$@" \
        | tee "$work/$label.out" | grep '^RESULT' | sed 's/^RESULT //' | tee -a "$results"
}

# Two wrk processes at once, one a server, each with half the connections and every other player
# (the script's thread count, its last argument, becomes 1); one RESULT line, their sum.
run_pair() {
    local label=$1 conns=$3 seconds=$4 script=$5 players=$6; shift 6
    local rest=("${@:1:$#-1}")
    awk 'NR % 2 == 1' "$players" >"$work/$label.a.txt"
    awk 'NR % 2 == 0' "$players" >"$work/$label.b.txt"
    GEOQR_LABEL=$label wrk -t1 -c$((conns / 2)) -d"${seconds}s" --timeout 10s -s "Benchmarks/load/$script" "$url" \
        -- "$work/$label.a.txt" "${rest[@]}" 1 >"$work/$label.a.out" &
    local other=$!
    GEOQR_LABEL=$label wrk -t1 -c$((conns / 2)) -d"${seconds}s" --timeout 10s -s "Benchmarks/load/$script" "$url_b" \
        -- "$work/$label.b.txt" "${rest[@]}" 1 >"$work/$label.b.out"
    wait "$other"
    python3 - "$work/$label.a.out" "$work/$label.b.out" <<'PY' | tee -a "$results"
import json, sys
a, b = (json.loads(next(l for l in open(p) if l.startswith("RESULT"))[7:]) for p in sys.argv[1:])
out = {k: (max(a[k], b[k]) if k.endswith("_ms") else a[k] + b[k]) if isinstance(a[k], (int, float)) else a[k] for k in a}
out["seconds"] = max(a["seconds"], b["seconds"])
print(json.dumps(out))
PY
}

echo "== reads: 64 players, 64 connections, ${secs} s =="
$LOAD_PY players --url "$url" --count 64 --prefix Reader --out "$work/readers.json" --txt "$work/readers.txt"
run_wrk reads 2 64 "$secs" reads.lua "$work/readers.txt" "$work/codes.txt" 2
echo "== players: $claimers claimers, $photos photographers (bcrypt cost 4) =="
t0=$(date +%s.%N)
$LOAD_PY players --url "$url" --count "$claimers" --prefix Claimer --out "$work/claimers.json" --txt "$work/claimers.txt"
$LOAD_PY players --url "$url" --count "$photos" --prefix Photo --out "$work/photos.json" --txt "$work/photos.txt"
awk -v s="$t0" -v e="$(date +%s.%N)" -v n=$((claimers + photos)) 'BEGIN { printf "joined %d players in %.1f s (%.0f joins/s, 16 at a time)\n", n, e - s, n / (e - s) }'
# Each photo run its own players, so every photo claim is a new find.
head -n $((photos / 2)) "$work/photos.txt" >"$work/photos-a.txt"
tail -n +$((photos / 2 + 1)) "$work/photos.txt" >"$work/photos-b.txt"
echo "== link claims, each a new find: 64 connections, ${secs} s =="
run_wrk claims-new 2 64 "$secs" claims.lua "$work/claimers.txt" "$work/codes.txt" 2
echo "== link claims repeated (already found, idempotent): 64 connections, $((secs / 2)) s =="
run_wrk claims-repeat 2 64 $((secs / 2)) claims.lua "$work/claimers.txt" "$work/codes.txt" 2
echo "== photo claims, 3 MB JPEG: 1 connection, then 2 =="
run_wrk photo-c1 1 1 "$secs" photo.lua "$work/photos-a.txt" "$work/photo.multipart" "$work/photo.ctype" 1
run_wrk photo-c2 1 2 "$secs" photo.lua "$work/photos-b.txt" "$work/photo.multipart" "$work/photo.ctype" 1
rss=$(rss_kb "$SERVER_PID")
serve_stop
echo "== ledger verify =="
"$GEOQR_BIN" ledger verify --data "$work/data"
python3 - "$results" "$rss" <<'PY'
import json, sys
rows = {r["label"]: r for r in map(json.loads, open(sys.argv[1]))}
def line(label, what, target=""):
    r = rows[label]
    print(f"| {what} | {r['per_s']:,.0f}/s | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['p999_ms']:.1f} | "
          f"{r['socket_errors']} / {r['non_2xx']} | {target} |")
print("\n| measure | throughput | p50 ms | p99 ms | p99.9 ms | socket errors / non-2xx | target |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
line("reads", "read endpoints (64 players), 64 conn.", "≥ 15,000/s")
new = rows["claims-new"]
line("claims-new", f"link claims, new finds, 64 conn. ({new['claimable']} finds = {new['claimable'] / new['seconds']:,.0f} finds/s; {new['repeat']} repeats)", "≥ 3,000/s, p99 ≤ 25 ms")
line("claims-repeat", f"link claims repeated, 64 conn. ({rows['claims-repeat']['repeat']} repeats, {rows['claims-repeat']['claimable']} finds)")
line("photo-c1", f"photo claims 3 MB, 1 conn. ({rows['photo-c1']['claimable']} finds)", "p50 ≤ 250 ms")
line("photo-c2", f"photo claims 3 MB, 2 conn. ({rows['photo-c2']['claimable']} finds)")
print(f"\nserver RSS at the end: {int(sys.argv[2]) / 1024:.0f} MiB")
PY
