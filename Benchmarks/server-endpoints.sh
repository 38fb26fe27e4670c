#!/usr/bin/env bash
# Read endpoints one at a time, then the mix, against a release `geoqr serve --load-test` on
# loopback: 64 players, 64 connections, wrk on the same machine. For finding which endpoint
# holds the mix back (Benchmarks/server.sh measures the mix alone).
#
#   Benchmarks/server-endpoints.sh [SECONDS]      (default 5 a phase; needs a release build)
#   ONLY: 0 /api/hunt, 1 /api/caches signed in from a place, 2 /api/caches, 3 /api/leaderboard, 4 /api/me
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
command -v wrk >/dev/null || { echo "wrk missing: scripts/install-deps --test" >&2; exit 1; }
source Benchmarks/load/serve.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-endpoints.XXXXXX")
trap 'serve_stop; rm -rf "$work"' EXIT
port=$(free_port)
url=http://127.0.0.1:$port
serve_start "$work/data" "$port" "$work/serve.log"
make_codes "$work/data" "$port" "$work"
$LOAD_PY players --url "$url" --count 64 --prefix Reader --out "$work/readers.json" --txt "$work/readers.txt" >/dev/null
names=("/api/hunt" "/api/caches signed in, from a place" "/api/caches" "/api/leaderboard" "/api/me")
echo "| endpoint | requests/s | p50 ms | p99 ms |"
echo "| --- | ---: | ---: | ---: |"
row() {   # NAME, then wrk's RESULT line on stdin
    python3 -c '
import json, sys
r = json.loads(sys.stdin.read().split("RESULT ", 1)[1])
print("| %s | %s | %.1f | %.1f |" % (sys.argv[1], format(round(r["per_s"]), ","), r["p50_ms"], r["p99_ms"]))' "$1"
}
for only in 0 1 2 3 4; do
    ONLY=$only GEOQR_LABEL=endpoint wrk -t2 -c64 -d"${secs}s" -s Benchmarks/load/reads.lua "$url" \
        -- "$work/readers.txt" "$work/codes.txt" 2 | grep RESULT | row "${names[$only]}"
done
GEOQR_LABEL=mix wrk -t2 -c64 -d"${secs}s" -s Benchmarks/load/reads.lua "$url" \
    -- "$work/readers.txt" "$work/codes.txt" 2 | grep RESULT | row "the mix (reads.lua)"
