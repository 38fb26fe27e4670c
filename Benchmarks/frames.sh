#!/usr/bin/env bash
# Camera frames the hunt server answers (issues 16 §1 and 27), beside zbar alone on the same
# frames in the same run:
#   - POST /api/claims/frame with 640×480 JPEGs holding no code, one scene at a time (wrk, 16
#     connections): the street scene of make-frames.py, then the scenes of make-scenes.py
#     (gravel, sand, asphalt, foliage, clouds, brick, low light, text and signs, an EAN-13, a
#     hand-drawn barcode, a grating); and the street scene with a code held in it, at 16 and
#     64 connections: frames/s, p50/p99
#   - zbarimg, one process, each scene's frame read over and over: its rate on one core, doubled
#     for the two cores the server has (the reference each scene's rate is held against)
# The server runs with --load-test (127.0.0.1 only, no rate limits): see `geoqr serve --help`.
#
#   Benchmarks/frames.sh [--quick] [--no-build]   (--quick: 4 s a scene, else 20 s)
#   GEOQR_BIN=/tmp/geoqr-before Benchmarks/frames.sh --no-build   (another build's server)
#   FRAMES_SCENES="gravel foliage" Benchmarks/frames.sh ...       (only these no-code scenes)
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

if [ "$quick" = 1 ]; then secs=4 reads=40; else secs=20 reads=200; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-frames-bench.XXXXXX")
trap 'serve_stop; rm -rf "$work"' EXIT
port=$(free_port)
url=http://127.0.0.1:$port
serve_start "$work/data" "$port" "$work/serve.log"
make_codes "$work/data" "$port" "$work"
python3 Benchmarks/load/make-frames.py "$work/code-png/A1.png" "$work"
mv "$work/frame-no-code.jpg" "$work/scene-street.jpg"
mapfile -t made < <(python3 Benchmarks/load/make-scenes.py "$work")
scenes=(street "${made[@]}")
[ -n "${FRAMES_SCENES:-}" ] && read -ra scenes <<<"$FRAMES_SCENES"
a1=$(awk '$1 == "A1" { print $3, $4 }' "$work/codes.txt")
# A phone sends its next frame once the last is answered, and the server reads one picture at a
# time per player: with 256 aimers for at most 64 connections, wrk's round robin never sends a
# player's frame while its last one is still in flight.
$LOAD_PY players --url "$url" --count 256 --prefix Aimer --out "$work/aimers.json" --txt "$work/aimers.txt"
echo "server $GEOQR_BIN, pid $SERVER_PID on $url; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

results=$work/results.txt
# frames LABEL FILE CONNS: one wrk run.
frames() {
    echo "== $1: $3 connections, ${secs} s =="
    GEOQR_LABEL="$1" wrk -t2 -c"$3" -d"${secs}s" --timeout 10s -s Benchmarks/load/frame.lua "$url" -- \
        "$work/aimers.txt" "$2" ${a1% *} ${a1#* } 2 | grep '^RESULT' | sed 's/^RESULT //' | tee -a "$results"
}
# zbar LABEL FILE: zbarimg reading FILE $reads times in one process (JPEG decoding included).
zbar() {
    local args; mapfile -t args < <(yes "$2" | head -n "$reads")
    local start end; start=$(date +%s.%N)
    zbarimg -q "${args[@]}" >/dev/null 2>&1 || true   # exit 4 when a frame holds no code; ImageMagick talks of D-Bus
    end=$(date +%s.%N)
    awk -v f="$1" -v n="$reads" -v s="$start" -v e="$end" 'BEGIN { r = n / (e - s);
        printf "{\"label\": \"zbarimg-%s\", \"ms_per_frame\": %.2f, \"per_s_one_core\": %.1f, \"per_s_two_cores\": %.1f}\n", f, (e - s) * 1000 / n, r, 2 * r }' | tee -a "$results"
}

for scene in "${scenes[@]}"; do
    frames "$scene" "$work/scene-$scene.jpg" 16
    zbar "$scene" "$work/scene-$scene.jpg"
done
for conns in 16 64; do frames "code-c$conns" "$work/frame-code.jpg" "$conns"; done
zbar code "$work/frame-code.jpg"

python3 - "$results" "${scenes[@]}" <<'PY'
import json, os, sys
rows = {r["label"]: r for r in map(json.loads, open(sys.argv[1]))}
scenes = sys.argv[2:]
print("\n| frames | connections | geoqr frames/s | p50 ms | p99 ms | zbarimg × 2 cores | ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
def row(name, label, conns, ref):
    r = rows[label]
    print(f"| {name} | {conns} | {r['per_s']:,.0f} | {r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {ref:,.0f} | {r['per_s'] / ref:.2f}× |")
    return r["per_s"] / ref
ratios = [row(s, s, 16, rows[f"zbarimg-{s}"]["per_s_two_cores"]) for s in scenes]
for conns in (16, 64):
    row("code (street)", f"code-c{conns}", conns, rows["zbarimg-code"]["per_s_two_cores"])
labels = scenes + ["code-c16", "code-c64"]
errors = sum(rows[l]["error"] + rows[l]["non_2xx"] for l in labels)
read = {s: rows[s]["code"] for s in scenes if rows[s]["code"]}
print(f"\nno-code scenes: lowest ratio {min(ratios):.2f}× ({scenes[ratios.index(min(ratios))]}); errors: {errors}; "
      f"a code frame read as no code: {sum(rows[f'code-c{c}']['nocode'] for c in (16, 64))}; a code read in a no-code scene: {read or 0}")
PY
