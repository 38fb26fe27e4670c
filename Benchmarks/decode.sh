#!/usr/bin/env bash
# Decode-rate benchmark: geoqr decode against zbarimg and ZXingReader on a generated corpus
# of hard pictures. All three use both cores: geoqr by itself, the others through xargs -P 2.
#
#   Benchmarks/decode.sh [CORPUS_DIR] [PER_CATEGORY] [PHONE_12MP_DIR]
#   GEOQR_BIN=.build-release/release/geoqr Benchmarks/decode.sh ...   # skip the build
#
# Then per-image figures (images/s, median time a picture, decode rate; one process a picture)
# on the corpus and on ten generated 12-megapixel phone JPEGs with one clear code each.
#
# Needs: swift, python3 with Benchmarks/requirements.txt, qrencode, zbar-tools, zxing-cpp-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-/tmp/geoqr-corpus}
per=${2:-25}
phone=${3:-/tmp/geoqr-corpus-12mp}
out=$(mktemp -d)
jobs=$(nproc)

# GEOQR_BIN=path/to/geoqr uses a release binary built elsewhere (another --scratch-path).
if [ -n "${GEOQR_BIN:-}" ]; then
    geoqr=$(realpath "$GEOQR_BIN")
else
    swift build -c release --product geoqr >&2
    geoqr=$(swift build -c release --show-bin-path)/geoqr
fi
if [ ! -f "$corpus/manifest.json" ]; then
    python3 Benchmarks/corpus/generate.py --out "$corpus" --per-category "$per" >&2
fi
cd "$corpus"
python3 -c 'import json; [print(e["file"]) for e in json.load(open("manifest.json"))]' > "$out/files"
echo "$(wc -l < "$out/files") pictures in $corpus" >&2

# Wall seconds and CPU seconds (user + system, children included) of a command.
seconds() { local t; t=$(mktemp); /usr/bin/time -f "%e %U %S" -o "$t" "$@"; awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$t"; rm -f "$t"; }

t_geoqr=$(seconds sh -c "xargs -a '$out/files' '$geoqr' decode --json > '$out/geoqr.jsonl' 2>/dev/null || true")
# Each batch writes its own file, so parallel batches cannot interleave their output.
batch() {   # batch COMMAND NAME: runs COMMAND on 20 files at a time, output to $out/NAME.PID
    xargs -a "$out/files" -P "$jobs" -n 20 sh -c "$1 \"\$@\" > \"$out/$2.\$\$\" 2>/dev/null || true" "$2"
}
export -f batch; export out jobs
t_zbar=$(seconds bash -c "batch 'zbarimg -q --xml -Sdisable -Sqrcode.enable' zbar")
t_zxing=$(seconds bash -c "batch 'ZXingReader -format QRCode -1' zxing")
cat "$out"/zbar.* > "$out/zbar.xml"
cat "$out"/zxing.* > "$out/zxing.txt"
printf 'geoqr %s\nzbarimg %s\nZXingReader %s\n' "$t_geoqr" "$t_zbar" "$t_zxing" > "$out/times"

python3 "$OLDPWD/Benchmarks/score.py" "$corpus" --geoqr "$out/geoqr.jsonl" --zxing "$out/zxing.txt" \
    --zbar "$out/zbar.xml" --times "$out/times"
echo "raw outputs: $out" >&2

cd "$OLDPWD"
if [ ! -f "$phone/manifest.json" ]; then
    python3 Benchmarks/corpus/phone12mp.py --out "$phone" --count 10 >&2
fi
echo; echo "Per image, phone-size corpus:"; python3 Benchmarks/per_image.py "$corpus" "$geoqr"
echo; echo "Per image, 12-megapixel phone JPEGs:"; python3 Benchmarks/per_image.py "$phone" "$geoqr"
