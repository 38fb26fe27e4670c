#!/usr/bin/env bash
# Load and soak (issue 7 §1): a release `geoqr serve --load-test` on loopback, driven by
# Benchmarks/load/geoqr_load.py with the realistic mix (joins, cache lists, link claims in and
# out of radius, photo claims with a 3 MB JPEG, trade offers and accepts, an event stream
# open for every player), at 64 and then 256 connections; then a soak at 64 connections while
# the server's RSS and open descriptors are sampled from /proc every 5 s. Ends with
# `geoqr ledger verify` and the client's journal checked against the ledger.
#
#   Benchmarks/soak.sh [--quick] [--no-build] [--seconds S] [--soak-minutes M]
#   (full: 60 s at each concurrency and a 10-minute soak; --quick: 5 s each and a 20 s soak)
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 secs=60 soak=600
while [ $# -gt 0 ]; do
    case $1 in
        --quick) secs=5 soak=20 ;;
        --no-build) build=0 ;;
        --seconds) secs=$2; shift ;;
        --soak-minutes) soak=$(( $2 * 60 )); shift ;;
        *) echo "usage: $0 [--quick] [--no-build] [--seconds S] [--soak-minutes M]" >&2; exit 2 ;;
    esac
    shift
done
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
source Benchmarks/load/serve.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-soak.XXXXXX")
trap 'serve_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
serve_demo "$work/data" "$work"
$LOAD_PY players --url "$url" --count 256 --prefix Walker --out "$work/players.json"
base_fds=$(fds "$SERVER_PID")
echo "server pid $SERVER_PID; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
mix() {   # CONNECTIONS SECONDS LABEL
    $LOAD_PY mix --url "$url" --players "$work/players.json" --codes "$work/codes.json" --photo "$work/photo.jpg" \
        --connections "$1" --duration "$2" --journal "$work/journal.jsonl" --json "$work/$3.json" || status=1
}
echo "== mix, 64 connections, $secs s =="
mix 64 "$secs" mix64
echo "== mix, 256 connections, $secs s =="
mix 256 "$secs" mix256

echo "== soak: mix at 64 connections for $soak s; RSS and open fds every 5 s =="
samples=$work/samples.csv
echo "seconds,rss_kib,fds" >"$samples"
(
    start=$(date +%s)
    while kill -0 "$SERVER_PID" 2>/dev/null; do
        echo "$(( $(date +%s) - start )),$(rss_kb "$SERVER_PID"),$(fds "$SERVER_PID")" >>"$samples"
        sleep 5
    done
) &
sampler=$!
mix 64 "$soak" soak
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
echo "seconds,rss_kib,fds (every 5 s; first, then each tenth, then last):"
awk -F, 'NR == 1 { next } { n++; row[n] = $0 } END { step = int(n / 10); if (step < 1) step = 1;
    for (i = 1; i <= n; i += step) print "  " row[i]; if ((n - 1) % step) print "  " row[n] }' "$samples"
awk -F, 'NR == 1 { next } { n++; r[n] = $2; f[n] = $3 } END {
    q = int(n / 4) + 1; maxr = 0; minf = f[q]; maxf = 0
    for (i = q; i <= n; i++) { if (r[i] > maxr) maxr = r[i]; if (f[i] < minf) minf = f[i]; if (f[i] > maxf) maxf = f[i] }
    printf "after the first quarter: RSS %.1f → %.1f MiB (max %.1f); fds %d–%d\n", r[q] / 1024, r[n] / 1024, maxr / 1024, minf, maxf }' "$samples"
# An event stream whose client has gone is noticed at the next write: the 15 s heartbeat.
sleep 20
echo "open fds 20 s after the clients had gone: $(fds "$SERVER_PID") (before any client: $base_fds)"
serve_stop
echo "== ledger verify and the acknowledged acts =="
"$GEOQR_BIN" ledger verify --data "$work/data" || status=1
"$GEOQR_BIN" ledger export --format jsonl --data "$work/data" >"$work/events.jsonl"
$LOAD_PY check --journal "$work/journal.jsonl" --events "$work/events.jsonl" || status=1
[ "$status" = 0 ] && echo "soak: OK" || echo "soak: FAILED (see above)"
exit "$status"
