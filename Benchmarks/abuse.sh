#!/usr/bin/env bash
# One hostile player against everyone else (issue 24): for each attack of the issue's table, one
# attacker process repeats it while honest players' code claims, honest 12 MP photo claims and
# /healthz are timed; the first row is the same with no attack. A release `geoqr serve` on
# loopback with its rate limits on, behind --behind-proxy 127.0.0.1 (the attacker forges any
# X-Forwarded-For address, as many phones would). Figures go to RELIABILITY.md.
#
#   Benchmarks/abuse.sh [--quick] [--no-build] [--bin GEOQR] [--only parts-form,png-bombs,…] [--json]
#
# Attacks: parts-form (40,000-part photo form), png-bombs (six 7071×7071 PNGs at once),
# combining-report (18 MB of combining accents), pin-spray (wrong PINs for one name from ever new
# addresses), join-flood (40 joins at once, bcrypt), address-spray (empty joins, a new /64 each),
# position-flood, idle-sockets (1,100),
# streams (200 event streams on one token, each resuming from 0).
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 seconds=20 bin="" rest=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) seconds=6 ;;
        --no-build) build=0 ;;
        --bin) bin=$2; shift ;;
        --only|--seconds) rest+=("$1" "$2"); shift ;;
        --json) rest+=("$1") ;;
        *) echo "usage: $0 [--quick] [--no-build] [--bin GEOQR] [--only ATTACK,…] [--json]" >&2; exit 2 ;;
    esac
    shift
done
python3 -c "import numpy, PIL" 2>/dev/null || python3 -m pip install -q -r Benchmarks/requirements.txt
if [[ -z $bin ]]; then
    [ "$build" = 1 ] && swift build -c release --product geoqr >&2
    bin="$(swift build -c release --show-bin-path)/geoqr"
fi
exec python3 Benchmarks/abuse.py --bin "$bin" --seconds "$seconds" "${rest[@]}"
