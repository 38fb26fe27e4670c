#!/usr/bin/env bash
# Two `geoqr serve` processes on one PostgreSQL, real parts only, all on loopback (issue 15 §3):
#
#   scripts/with-postgres Tests/multi-server/run.sh [GEOQR_BIN] [--kills N]
#   (default: $GEOQR_BIN, else a debug build made here; 20 kills)
#
# Needs GEOQR_TEST_POSTGRES (scripts/with-postgres starts a PostgreSQL 15 and sets it); makes a
# database of its own in that server. Servers A and B run the demo hunt over it (GEOQR_STORE),
# sharing one data folder (the hunt's secret, the admin token), as deploy/two-servers has them.
#
# 1. Tests/multi-server/multi_server.py plays A and B directly: join on one and claim on the
#    other; a find on A reaches a stream open on B within a second, and B's stream resumes on A
#    from Last-Event-ID; wrong PINs count on both; a stop on A holds on B; 200 trade accepts at
#    once over both leave every card one owner.
# 2. The crash loop: N times, the load mix (Benchmarks/load/geoqr_load.py: 16 players, each with
#    a live stream, claiming, offering, accepting, joining) runs through Caddy balancing A and
#    B with deploy/two-servers/Caddyfile (or, without caddy, straight at A and B, each client
#    moving to the other server when its own stops answering); one server, chosen at random,
#    is killed with SIGKILL at a random moment and restarted. After each kill every find,
#    offer, accepted trade and join a client saw acknowledged is in the ledger (`geoqr ledger
#    export`), replaying the card moves gives no item two owners; at the end `geoqr ledger
#    verify` passes.
set -euo pipefail
kills=20
GEOQR_BIN=${GEOQR_BIN:-}
while [ $# -gt 0 ]; do
    case $1 in
        --kills) kills=$2; shift ;;
        -*) echo "usage: $0 [GEOQR_BIN] [--kills N]" >&2; exit 2 ;;
        *) GEOQR_BIN=$1 ;;
    esac
    shift
done
if [[ $GEOQR_BIN == */* && $GEOQR_BIN != /* ]]; then GEOQR_BIN=$PWD/$GEOQR_BIN; fi
cd "$(dirname "$0")/../.."
[ -n "${GEOQR_TEST_POSTGRES:-}" ] || {
    echo "Tests/multi-server/run.sh: GEOQR_TEST_POSTGRES is not set: run it through scripts/with-postgres" >&2; exit 1; }
if [[ -z $GEOQR_BIN ]]; then
    swift build --product geoqr >/dev/null 2>&1 || swift build --product geoqr
    GEOQR_BIN="$(swift build --show-bin-path)/geoqr"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-multi-XXXXXX")
# A copy: a rebuild meanwhile must not change (or lock) the binary the servers restart from.
cp "$GEOQR_BIN" "$work/geoqr"
export GEOQR_BIN=$work/geoqr
source Benchmarks/load/serve.sh

data=$work/data
declare -A pid=() port=()
failures=0
cleanup() {
    local status=$?
    for name in "${!pid[@]}"; do kill -TERM "${pid[$name]}" 2>/dev/null || true; done
    for name in "${!pid[@]}"; do wait "${pid[$name]}" 2>/dev/null || true; done
    if [[ $status -eq 0 && $failures -eq 0 ]]; then
        rm -rf "$work"
    else
        for log in A B caddy; do
            [[ -f $work/$log.log ]] || continue
            echo "# ---- last lines of $log.log ----"
            tail -n 30 "$work/$log.log" | sed 's/^/# /'
        done
        echo "# files kept in $work"
    fi
}
trap cleanup EXIT

# A database of its own on the test server.
base=${GEOQR_TEST_POSTGRES%%\?*}
query=${GEOQR_TEST_POSTGRES#"$base"}
db=geoqr_multi_$$_$RANDOM
psql -q "$GEOQR_TEST_POSTGRES" -c "CREATE DATABASE $db"
export GEOQR_STORE="${base%/*}/$db$query"

# start NAME: geoqr serve on port[NAME] over the shared store; waits until it answers.
start() {
    local name=$1
    "$GEOQR_BIN" serve --hunt demo --data "$data" --port "${port[$name]}" --load-test >>"$work/$name.log" 2>&1 &
    pid[$name]=$!
    for _ in $(seq 1 600); do
        curl -fsS -o /dev/null "http://127.0.0.1:${port[$name]}/healthz" 2>/dev/null && return 0
        kill -0 "${pid[$name]}" 2>/dev/null || { echo "server $name exited"; return 1; }
        sleep 0.1
    done
    echo "server $name did not answer within 60 s"
    return 1
}

port[A]=$(free_port) port[B]=$(free_port)
start A   # makes the hunt's secret and the admin token, which B then uses
start B
urlA=http://127.0.0.1:${port[A]} urlB=http://127.0.0.1:${port[B]}
make_codes "$data" "${port[A]}" "$work"
admin=$(tr -d '\n' <"$data/server/DEMO.admin")

echo "== two servers, one PostgreSQL: A on ${port[A]}, B on ${port[B]} =="
python3 Tests/multi-server/multi_server.py --a "$urlA" --b "$urlB" --codes "$work/codes.json" --admin "$admin" \
    || failures=$((failures + 1))

# The crash loop goes through Caddy, as players would, when it is installed.
target="$urlA,$urlB"
if command -v caddy >/dev/null; then
    port[caddy]=$(free_port)
    sed -e "s/^{\$/{\n\tadmin off\n\tauto_https off/" \
        -e "s#^hunt.example.org {#http://127.0.0.1:${port[caddy]} {#" \
        -e "s/127.0.0.1:8081/127.0.0.1:${port[A]}/" -e "s/127.0.0.1:8082/127.0.0.1:${port[B]}/" \
        deploy/two-servers/Caddyfile >"$work/Caddyfile"
    HOME=$work XDG_DATA_HOME=$work XDG_CONFIG_HOME=$work caddy run --config "$work/Caddyfile" --adapter caddyfile \
        >"$work/caddy.log" 2>&1 &
    pid[caddy]=$!
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:${port[caddy]}/healthz" 2>/dev/null && break; sleep 0.1; done
    target=http://127.0.0.1:${port[caddy]}
fi

echo "== crash loop: $kills kills under load, through ${target} =="
$LOAD_PY players --url "$urlA" --count $(( 16 * kills )) --prefix Crash --out "$work/players.json"
for i in $(seq 1 "$kills"); do
    delay_ms=$(( 100 + RANDOM % 2400 ))
    victim=$([ $((RANDOM % 2)) = 0 ] && echo A || echo B)
    rm -f "$work/started"
    GEOQR_LOAD_ALLOW_ERRORS=1 $LOAD_PY mix --url "$target" --players "$work/players.json" --codes "$work/codes.json" \
        --connections 16 --offset $(( 16 * (i - 1) )) --duration "$(( delay_ms / 1000 + 2 ))" --timeout 5 \
        --journal "$work/journal.jsonl" --json "$work/mix-$i.json" --started "$work/started" >"$work/mix-$i.log" 2>&1 &
    client=$!
    for _ in $(seq 1 200); do [ -e "$work/started" ] && break; sleep 0.05; done
    sleep "$(awk -v ms="$delay_ms" 'BEGIN { print ms / 1000 }')"
    kill -9 "${pid[$victim]}"
    wait "${pid[$victim]}" 2>/dev/null || true
    wait "$client" || { echo "iteration $i: the load client failed:"; tail -5 "$work/mix-$i.log"; failures=$((failures + 1)); }
    start "$victim" || { failures=$((failures + 1)); break; }
    "$GEOQR_BIN" ledger export --format jsonl --data "$data" >"$work/events.jsonl"
    result=$($LOAD_PY check --journal "$work/journal.jsonl" --events "$work/events.jsonl" 2>&1) || failures=$((failures + 1))
    acked=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sum(k['count'] for k in s['kinds'].values()), 'requests,', s['errors'], 'failed with the killed server')" "$work/mix-$i.json" 2>/dev/null || echo "?")
    echo "iteration $i: killed $victim at ${delay_ms} ms; $acked; ${result%%$'\n'*}"
    echo "$result" | grep '^  problem:' || true
done
verify=$("$GEOQR_BIN" ledger verify --data "$data" 2>&1) && echo "ledger verify: $verify" \
    || { echo "ledger verify FAILED: $verify"; failures=$((failures + 1)); }
if [ "$failures" = 0 ]; then echo "multi-server: OK"; else echo "multi-server: $failures FAILURES"; exit 1; fi
