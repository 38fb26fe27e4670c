#!/usr/bin/env bash
# Camera frames the hunt server answers (issue 16 §1), beside zbar alone on the same frames in
# the same run:
#   - POST /api/claims/frame with a 640×480 JPEG holding no code, and one holding a code, at 16
#     and at 64 connections (wrk): frames/s, p50/p99
#   - zbarimg, one process, the same frame 200 times: its rate on one core, doubled for the two
#     cores the server has (the reference the server's no-code rate is held against)
# The server runs with --load-test (127.0.0.1 only, no rate limits): see `geoqr serve --help`.
#
#   Benchmarks/frames.sh [--quick] [--no-build]      (--quick: a few seconds a phase)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0 build=1
for arg in "$@"; do
    case $arg in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        *) echo "usage: $0 [--quick] [--no-build]" >&2; exit 2 ;;
    esac
done
for tool in wrk zbarimg; do
    command -v $tool >/dev/null || { echo "$tool missing: scripts/install-deps --test" >&2; exit 1; }
done
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
source Benchmarks/load/serve.sh

if [ "$quick" = 1 ]; then secs=4; else secs=20; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-frames-bench.XXXXXX")
trap 'serve_stop; rm -rf "$work"' EXIT
port=$(free_port)
url=http://127.0.0.1:$port
serve_start "$work/data" "$port" "$work/serve.log"
make_codes "$work/data" "$port" "$work"
python3 Benchmarks/load/make-frames.py "$work/code-png/A1.png" "$work"
a1=$(awk '$1 == "A1" { print $3, $4 }' "$work/codes.txt")
# A phone sends its next frame once the last is answered, and the server reads one picture at a
# time per player: with 256 aimers for at most 64 connections, wrk's round robin never sends a
# player's frame while its last one is still in flight.
$LOAD_PY players --url "$url" --count 256 --prefix Aimer --out "$work/aimers.json" --txt "$work/aimers.txt"
echo "server pid $SERVER_PID on $url; frames $(stat -c %s "$work/frame-no-code.jpg") and $(stat -c %s "$work/frame-code.jpg") bytes; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

results=$work/results.txt
for frame in no-code code; do
    for conns in 16 64; do
        echo "== frames with ${frame/-/ }: $conns connections, ${secs} s =="
        GEOQR_LABEL="$frame-c$conns" wrk -t2 -c"$conns" -d"${secs}s" --timeout 10s -s Benchmarks/load/frame.lua "$url" -- \
            "$work/aimers.txt" "$work/frame-$frame.jpg" ${a1% *} ${a1#* } 2 | grep '^RESULT' | sed 's/^RESULT //' | tee -a "$results"
    done
done

echo "== zbarimg alone: each frame 200 times in one process =="
for frame in no-code code; do
    mapfile -t args < <(yes "$work/frame-$frame.jpg" | head -n 200)
    start=$(date +%s.%N)
    zbarimg -q "${args[@]}" >/dev/null 2>&1 || true   # exit 4 when a frame holds no code; ImageMagick talks of D-Bus
    end=$(date +%s.%N)
    awk -v f="$frame" -v s="$start" -v e="$end" 'BEGIN { r = 200 / (e - s);
        printf "{\"label\": \"zbarimg-%s\", \"ms_per_frame\": %.2f, \"per_s_one_core\": %.1f, \"per_s_two_cores\": %.1f}\n", f, (e - s) * 5, r, 2 * r }' | tee -a "$results"
done

python3 - "$results" <<'PY'
import json, sys
rows = {r["label"]: r for r in map(json.loads, open(sys.argv[1]))}
print("\n| frames | connections | geoqr frames/s | p50 ms | p99 ms | zbarimg × 2 cores | ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for frame in ("no-code", "code"):
    ref = rows[f"zbarimg-{frame}"]["per_s_two_cores"]
    for conns in (16, 64):
        r = rows[f"{frame}-c{conns}"]
        print(f"| {frame} | {conns} | {r['per_s']:,.0f} | {r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {ref:,.0f} | {r['per_s'] / ref:.2f}× |")
errors = sum(rows[f"{f}-c{c}"]["error"] + rows[f"{f}-c{c}"]["non_2xx"] for f in ("no-code", "code") for c in (16, 64))
print(f"\nerrors: {errors}; a code frame read as no code: {sum(rows[f'code-c{c}']['nocode'] for c in (16, 64))}")
PY
