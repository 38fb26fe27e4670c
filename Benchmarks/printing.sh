#!/usr/bin/env bash
# Printing benchmarks, side by side with the qrencode command-line tool:
#   1. 1,000 PNG codes: `geoqr code HUNT -o DIR` (one process, both cores) against 1,000 runs
#      of `qrencode -o FILE.png` on payloads of the same length and character set (qrencode
#      has no batch mode); and one code per process for each tool, start-up included.
#   2. A 500-cache hunt printed to one PDF (cards layout, 84 pages).
# Usage: Benchmarks/printing.sh   (release build; needs qrencode and hyperfine)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product geoqr >/dev/null
bin="$(swift build -c release --show-bin-path)/geoqr"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GEOQR_DATA="$work/data"
python3 Benchmarks/make-hunt.py 1000 bench1000 "$work/bench1000.json"
python3 Benchmarks/make-hunt.py 500 bench500 "$work/bench500.json"
"$bin" code "$work/bench1000.json" C0000 -o "$work/warm.png"   # makes the secret first

# Payloads of the same shape as GeoQR's (QR alphanumeric, 36 characters) for qrencode.
for i in $(seq -w 0 999); do echo "GQ1.BENCH1000.C0$i.ABCDEFGHIJKLMNOP"; done > "$work/payloads.txt"

echo "== 1,000 PNG codes (module 3 px, margin 4, level M)"
hyperfine --shell bash --style basic --warmup 1 --runs 5 --export-json "$work/codes.json" \
  -n "geoqr code (1 process, 1,000 codes)" "rm -rf $work/g && $bin code $work/bench1000.json -o $work/g --size 3 --margin 4 --level M" \
  -n "qrencode (1,000 processes)" "rm -rf $work/q && mkdir $work/q && n=0; while read -r p; do n=\$((n+1)); qrencode -s 3 -m 4 -l M -o $work/q/\$n.png \"\$p\"; done < $work/payloads.txt"
echo "== one code, one process (start-up included; demo hunt)"
hyperfine --shell bash --style basic --warmup 3 --runs 30 --export-json "$work/codes-one.json" \
  -n "geoqr code demo A1" "$bin code demo A1 -o $work/one-g.png --size 3" \
  -n "qrencode" "qrencode -s 3 -m 4 -l M -o $work/one-q.png GQ1.DEMO.A1.ABCDEFGHIJKLMNOP"

echo "== 500-cache hunt to PDF (cards, A4)"
hyperfine --shell bash --style basic --warmup 1 --runs 5 --export-json "$work/pdf.json" \
  -n "geoqr print (500 caches, PDF)" "$bin print $work/bench500.json -o $work/sheet.pdf"
pages=$(pdfinfo "$work/sheet.pdf" | awk '/^Pages:/ {print $2}')
echo "PDF: $pages pages, $(stat -c %s "$work/sheet.pdf") bytes"
echo "PNG sizes: geoqr $(du -sb "$work/g" | cut -f1) bytes, qrencode $(du -sb "$work/q" | cut -f1) bytes for 1,000 codes"

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def mean(f, i=0): return json.load(open(f"{w}/{f}"))["results"][i]["mean"]
g, q, p = mean("codes.json", 0), mean("codes.json", 1), mean("pdf.json")
og, oq = mean("codes-one.json", 0), mean("codes-one.json", 1)
print(f"\nsummary: 1,000 codes: geoqr {g:.3f} s, qrencode {q:.3f} s (geoqr {q/g:.1f}x faster); "
      f"one code per process: geoqr {og*1000:.1f} ms, qrencode {oq*1000:.1f} ms (ratio {og/oq:.2f}); "
      f"500-cache PDF {p:.3f} s")
PY
