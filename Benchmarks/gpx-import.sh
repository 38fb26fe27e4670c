#!/usr/bin/env bash
# Times `geoqr import` (release build) on a generated 500-cache pocket query (~4 MB, zipped with
# its -wpts companion) and a 10,000-waypoint GPX 1.1 file; reports peak RSS of each.
# Usage: Benchmarks/gpx-import.sh        (from the package root)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product geoqr >/dev/null
GEOQR="$(swift build -c release --show-bin-path)/geoqr"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

python3 Benchmarks/make-gpx.py pq "$WORK/500.gpx" 500
python3 Benchmarks/make-gpx.py waypoints "$WORK/10000.gpx" 10000
(cd "$WORK" && zip -q pq.zip 500.gpx 500-wpts.gpx)
echo "500-cache pocket query: $(du -k "$WORK/500.gpx" | cut -f1) KB (+ $(du -k "$WORK/500-wpts.gpx" | cut -f1) KB waypoints), zip $(du -k "$WORK/pq.zip" | cut -f1) KB"
echo "10,000-waypoint file:   $(du -k "$WORK/10000.gpx" | cut -f1) KB"
mkdir -p "$WORK/caches"

cases=(
  "pq.gpx|import $WORK/500.gpx -o $WORK/caches/pq.json"
  "pq.zip|import $WORK/pq.zip -o $WORK/caches/pqzip.json"
  "10000 waypoints|import $WORK/10000.gpx -o $WORK/caches/points.json"
)
for c in "${cases[@]}"; do
  label="${c%%|*}"; args="${c#*|}"
  echo "== $label: geoqr $args"
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 10 --style basic "$GEOQR $args 2>/dev/null" | grep -E "Time|Range"
  else
    start=$(date +%s.%N); for _ in $(seq 10); do $GEOQR $args 2>/dev/null >/dev/null; done; end=$(date +%s.%N)
    echo "  mean $(echo "($end - $start) / 10" | bc -l | cut -c1-6) s over 10 runs"
  fi
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v $GEOQR $args 2>&1 >/dev/null | grep "Maximum resident" | sed 's/^\s*/  /'
  fi
done
