#!/usr/bin/env bash
# Crashes (issue 7 §2): N times over, run the load mix against a release `geoqr serve
# --load-test`, `kill -9` the server at a random moment, restart it on the same data
# directory, and check: every find, offer, accepted trade and join a client saw acknowledged
# is in the ledger (`geoqr ledger export --format jsonl`), `geoqr ledger verify` passes, and
# replaying the card moves gives no item two owners and no player two cards of one cache.
#
#   Benchmarks/crash-loop.sh [--iterations 50] [--quick] [--no-build] [--seed N]
#   (--quick: 3 iterations, for CI)
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 iterations=50 seed=${RANDOM}
while [ $# -gt 0 ]; do
    case $1 in
        --quick) iterations=3 ;;
        --iterations) iterations=$2; shift ;;
        --seed) seed=$2; shift ;;
        --no-build) build=0 ;;
        *) echo "usage: $0 [--iterations N] [--quick] [--no-build] [--seed N]" >&2; exit 2 ;;
    esac
    shift
done
[ "$build" = 1 ] && swift build -c release --product geoqr >&2
source Benchmarks/load/serve.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-crash.XXXXXX")
trap 'serve_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
RANDOM=$seed
data=$work/data
serve_demo "$data" "$work"
# Fresh players for every iteration, so each one's claims are new finds, not repeats.
$LOAD_PY players --url "$url" --count $(( 32 * iterations )) --prefix Crash --out "$work/players.json"
echo "crash loop: $iterations iterations, seed $seed, data $data"
failures=0
for i in $(seq 1 "$iterations"); do
    [ -n "${SERVER_PID:-}" ] || serve_start "$data" "$port" "$work/serve.log"
    # Kill somewhere between 0.1 and 4 s into the load; the clients stop two seconds later.
    delay_ms=$(( 100 + RANDOM % 3900 ))
    rm -f "$work/started"
    GEOQR_LOAD_ALLOW_ERRORS=1 $LOAD_PY mix --url "$url" --players "$work/players.json" --codes "$work/codes.json" \
        --photo "$work/photo.jpg" --connections 32 --offset $(( 32 * (i - 1) )) --duration "$(( delay_ms / 1000 + 2 ))" --timeout 5 \
        --journal "$work/journal.jsonl" --json "$work/mix-$i.json" --started "$work/started" >"$work/mix-$i.log" 2>&1 &
    client=$!
    for _ in $(seq 1 200); do [ -e "$work/started" ] && break; sleep 0.05; done
    sleep "$(awk -v ms="$delay_ms" 'BEGIN { print ms / 1000 }')"
    kill -9 "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    wait "$client" || { echo "iteration $i: the load client failed:"; tail -5 "$work/mix-$i.log"; failures=$((failures + 1)); }
    serve_start "$data" "$port" "$work/serve.log" || { echo "iteration $i: the server did not come back"; failures=$((failures + 1)); break; }
    verify=$("$GEOQR_BIN" ledger verify --data "$data" 2>&1) || { echo "iteration $i: ledger verify failed: $verify"; failures=$((failures + 1)); }
    "$GEOQR_BIN" ledger export --format jsonl --data "$data" >"$work/events.jsonl"
    result=$($LOAD_PY check --journal "$work/journal.jsonl" --events "$work/events.jsonl" 2>&1) || failures=$((failures + 1))
    acked=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sum(k['count'] for k in s['kinds'].values()), 'requests,', s['errors'], 'refused by the dead server')" "$work/mix-$i.json" 2>/dev/null || echo "?")
    echo "iteration $i: killed at ${delay_ms} ms; $acked; ${result%%$'\n'*}"
    echo "$result" | grep '^  problem:' || true
done
serve_stop
echo "== after $iterations kills =="
"$GEOQR_BIN" ledger verify --data "$data" || failures=$((failures + 1))
$LOAD_PY check --journal "$work/journal.jsonl" --events "$work/events.jsonl" || true
if [ "$failures" = 0 ]; then echo "crash loop: OK ($iterations kills, nothing acknowledged lost)"; else echo "crash loop: $failures FAILURES"; exit 1; fi
