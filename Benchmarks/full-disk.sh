#!/usr/bin/env bash
# A full disk (issue 7 §2): the data directory on a small tmpfs (else a loop-mounted ext4
# file; both need root), the load mix running; the disk is filled to the last byte, the mix
# goes on (clients must get JSON errors, 507, and the server must stay up), the space is
# freed, the mix goes on again (no errors), and then: `geoqr ledger verify` passes and every
# act a client saw acknowledged, before, during and after, is in the ledger.
#
#   Benchmarks/full-disk.sh [--quick] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 secs=10
for arg in "$@"; do
    case $arg in
        --quick) secs=4 ;;
        --no-build) build=0 ;;
        *) echo "usage: $0 [--quick] [--no-build]" >&2; exit 2 ;;
    esac
done
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
source Benchmarks/load/serve.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-full-disk.XXXXXX")
disk=$work/disk
mkdir -p "$disk"
cleanup() { serve_stop; umount "$disk" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
if mount -t tmpfs -o size=48m,mode=0700 geoqr-full "$disk" 2>/dev/null; then
    echo "data directory on a 48 MiB tmpfs"
elif truncate -s 48M "$work/disk.img" && mkfs.ext4 -q "$work/disk.img" && mount -o loop "$work/disk.img" "$disk" 2>/dev/null; then
    echo "data directory on a 48 MiB loop-mounted ext4 file"
else
    echo "full-disk: SKIPPED: neither a tmpfs nor a loop file can be mounted here (needs root)"
    exit 0
fi
data=$disk/data
serve_demo "$data" "$work"
$LOAD_PY players --url "$url" --count 32 --prefix Full --out "$work/players.json"
status=0
mix() {   # LABEL SECONDS [allow errors]
    GEOQR_LOAD_ALLOW_ERRORS=${3:-} $LOAD_PY mix --url "$url" --players "$work/players.json" --codes "$work/codes.json" \
        --photo "$work/photo.jpg" --connections 32 --duration "$2" --timeout 10 \
        --journal "$work/journal.jsonl" --json "$work/$1.json" || status=1
}
echo "== before: $secs s of the mix =="
mix before "$secs"
echo "== the disk filled: $(df -h --output=avail "$disk" | tail -1 | tr -d ' ') free before =="
dd if=/dev/zero of="$disk/filler" bs=64k status=none 2>/dev/null || true
head -c 1048576 /dev/zero >"$disk/filler2" 2>/dev/null || true
df -h --output=size,used,avail "$disk" | sed 's/^/  /'
mix full "$secs" 1
python3 - "$work/full.json" <<'PY' || status=1
import json, sys
s = json.load(open(sys.argv[1]))
writes = ("claim-in", "claim-out", "photo", "offer", "accept", "join")
refused = {k: v["status"] for k, v in s["kinds"].items() if k in writes}
conn = sum(v["status"].get("conn", 0) for v in s["kinds"].values())
statuses = {}
for v in s["kinds"].values():
    for code, n in v["status"].items():
        statuses[code] = statuses.get(code, 0) + n
print("  while full, every answer by status:", dict(sorted(statuses.items())))
print("  error bodies that were not JSON:", s["not_json_errors"], "; failed connections:", conn)
bad = [c for c in statuses if c not in ("200", "201", "409", "404", "422", "507", "503")]
sys.exit(1 if s["not_json_errors"] or conn or bad else 0)
PY
kill -0 "$SERVER_PID" || { echo "the server died on the full disk"; exit 1; }
echo "== space freed: $secs s of the mix =="
rm -f "$disk/filler" "$disk/filler2"
mix after "$secs"
serve_stop
echo "== restart, ledger verify, the acknowledged acts =="
serve_start "$data" "$port" "$work/serve.log" && serve_stop
"$GEOQR_BIN" ledger verify --data "$data" || status=1
"$GEOQR_BIN" ledger export --format jsonl --data "$data" >"$work/events.jsonl"
$LOAD_PY check --journal "$work/journal.jsonl" --events "$work/events.jsonl" || status=1
[ "$status" = 0 ] && echo "full-disk: OK" || { echo "full-disk: FAILED"; exit 1; }
