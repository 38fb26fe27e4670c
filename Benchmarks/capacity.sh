#!/usr/bin/env bash
# Capacity (issue 27): how many phones holding the live stream open one setup serves, found by
# stepping up the number of phones until one of these fails:
#   - claims p99 ≤ 100 ms
#   - the news of a find reaches 99% of the phones within 1 s
#   - no request fails (non-2xx, a reset, a stream that ended, a request unanswered 10 s after
#     the run)
#   - each server's peak RSS (VmHWM) < 1 GB
#
#   Benchmarks/capacity.sh [--quick] [--geoqr PATH] [--setup sqlite|postgres|both] [--max N]
#                          [--steps "500 1000 …"] [--duration S] [--hunt NAME|FILE] [--out FILE] [--all]
#                          [--requests-only]
#
# Setups: sqlite, one `geoqr serve --load-test`; postgres, two on one PostgreSQL 15 (through
# scripts/with-postgres) behind Caddy, as deploy/two-servers and Tests/multi-server have them.
# Each step starts the servers afresh (so VmHWM is that step's), joins the players it lacks
# (Benchmarks/load/geoqr_load.py), then runs Benchmarks/load/phones.c (compiled here with -O2):
# the streams open first (the ramp, not measured), then --duration s (default 60) of play:
# positions every 10 s, cache lists every 30 s, a claim per phone every 3 minutes, 1% of the
# phones aiming a camera (a no-code frame a second). After the steps (500, 1000, 2000, 4000,
# 7000, 10000, 14000, 20000) it bisects twice between the last pass and the first failure.
# --quick: 20 s steps up to 2000, no bisection. --all: every step, past the first failure (a
# table of how the setup degrades), but not past a step whose streams would not all open.
# --requests-only: positions and cache lists alone, no claims and no camera (what the requests
# cost beside the streams; no news to time, so only the claims-free checks apply).
#
# One line a step on the terminal, with the generator's CPU beside the servers' so it shows the
# generator was not the bottleneck, and the share of the machine's time its hypervisor stole
# meanwhile (a virtual machine whose host runs others on its cores: a step with a fifth of the
# time stolen measures the host, not geoqr; compare builds in runs with little stolen); the runs' JSON lines go to --out (default
# capacity-DATE.jsonl in the work folder, which is kept) and a Markdown table ends the run.
# The release binary is the default (.build/release/geoqr); --geoqr another (a copy is run).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
quick=0 all=0 requests_only=0 setup=sqlite max=20000 duration= hunt=demo out= steps="500 1000 2000 4000 7000 10000 14000 20000"
GEOQR=${GEOQR_BIN:-.build/release/geoqr}
args=("$@")
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --all) all=1 ;;
        --requests-only) requests_only=1 ;;
        --geoqr) GEOQR=$2; shift ;;
        --setup) setup=$2; shift ;;
        --max) max=$2; shift ;;
        --steps) steps=$2; shift ;;
        --duration) duration=$2; shift ;;
        --hunt) hunt=$2; shift ;;
        --out) out=$2; shift ;;
        *) echo "usage: $0 [--quick] [--geoqr PATH] [--setup sqlite|postgres|both] [--max N] [--steps \"N …\"] [--all] [--duration S] [--hunt NAME|FILE] [--out FILE] [--requests-only]" >&2; exit 2 ;;
    esac
    shift
done
case $setup in sqlite|postgres|both) ;; *) echo "--setup: sqlite, postgres or both" >&2; exit 2 ;; esac
if [ "$quick" = 1 ]; then duration=${duration:-20}; [ "$max" -gt 2000 ] && max=2000; fi
duration=${duration:-60}
[ -x "$GEOQR" ] || { echo "no $GEOQR: swift build -c release --product geoqr, or --geoqr PATH" >&2; exit 1; }
if [[ $setup != sqlite && -z ${GEOQR_TEST_POSTGRES:-} ]]; then exec scripts/with-postgres "$0" "${args[@]}"; fi
command -v gcc >/dev/null || { echo "gcc missing" >&2; exit 1; }
if [[ $setup != sqlite ]] && ! command -v caddy >/dev/null; then echo "caddy missing (apt-get install caddy)" >&2; exit 1; fi
[[ $hunt == */* && $hunt != /* ]] && hunt=$root/$hunt

work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-capacity.XXXXXX")
cp "$GEOQR" "$work/geoqr"
export GEOQR_BIN=$work/geoqr
source Benchmarks/load/serve.sh
gcc -O2 -Wall -o "$work/phones" Benchmarks/load/phones.c
out=${out:-$work/capacity-$(date -u +%Y%m%d-%H%M).jsonl}
# Every socket a phone holds is a descriptor, here and in the server (geoqr raises its soft
# limit to the hard one and keeps an eighth free; Caddy holds two a phone).
ulimit -n "$(ulimit -Hn)"
fd_limit=$(ulimit -n)

# On a shared machine (other builds on the same cores) the servers, Caddy and the generator
# run at nice -10 when this runs as root, so the figures are the setup's, not the neighbours'.
# GEOQR_CAPACITY_NICE=0 leaves every process at its priority. GEOQR_CAPACITY_POOL: the
# generator's keep-alive connections per server for the phones' requests (default 64; a request
# waits in the generator's queue while all are busy, and its latency counts the wait).
nice_level=${GEOQR_CAPACITY_NICE:--10}
[ "$(id -u)" = 0 ] || nice_level=0

declare -A pid=()
stop_all() {
    for name in "${!pid[@]}"; do kill -TERM "${pid[$name]}" 2>/dev/null || true; done
    for name in "${!pid[@]}"; do wait "${pid[$name]}" 2>/dev/null || true; done
    pid=()
}
trap 'stop_all; rm -f "$work/geoqr"; echo "# files kept in $work"' EXIT

# start NAME PORT DATA: geoqr serve over DATA (and GEOQR_STORE when set); waits for /healthz.
start() {
    local name=$1 port=$2 data=$3
    nice -n "$nice_level" "$GEOQR_BIN" serve --hunt "$hunt" --data "$data" --port "$port" --load-test >>"$work/$name.log" 2>&1 &
    pid[$name]=$!
    for _ in $(seq 1 600); do
        curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0
        kill -0 "${pid[$name]}" 2>/dev/null || { echo "server $name exited:" >&2; tail -5 "$work/$name.log" >&2; return 1; }
        sleep 0.1
    done
    echo "server $name did not answer within 60 s" >&2; return 1
}

# caddy_start PORT UPSTREAM…: deploy/two-servers/Caddyfile on loopback, plain HTTP.
caddy_start() {
    local port=$1 a=$2 b=$3
    sed -e "s/^{\$/{\n\tadmin off\n\tauto_https off/" \
        -e "s#^hunt.example.org {#http://127.0.0.1:$port {#" \
        -e "s/127.0.0.1:8081/127.0.0.1:$a/" -e "s/127.0.0.1:8082/127.0.0.1:$b/" \
        deploy/two-servers/Caddyfile >"$work/Caddyfile"
    HOME=$work XDG_DATA_HOME=$work XDG_CONFIG_HOME=$work nice -n "$nice_level" caddy run --config "$work/Caddyfile" --adapter caddyfile \
        >>"$work/caddy.log" 2>&1 &
    pid[caddy]=$!
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0; sleep 0.1; done
    echo "caddy did not answer" >&2; return 1
}

# The servers of SETUP (sets url, pids: the --server-pid list for phones, direct: a server's URL).
up() {
    local s=$1
    if [ "$s" = sqlite ]; then
        port[A]=${port[A]:-$(free_port)}
        start A "${port[A]}" "$work/sqlite"
        url=http://127.0.0.1:${port[A]} direct=$url pids="A=${pid[A]}"
    else
        port[A]=${port[A]:-$(free_port)} port[B]=${port[B]:-$(free_port)} port[caddy]=${port[caddy]:-$(free_port)}
        start A "${port[A]}" "$work/postgres"
        start B "${port[B]}" "$work/postgres"
        caddy_start "${port[caddy]}" "${port[A]}" "${port[B]}"
        url=http://127.0.0.1:${port[caddy]} direct=http://127.0.0.1:${port[A]} pids="A=${pid[A]},B=${pid[B]},caddy=${pid[caddy]}"
    fi
}

# The largest N a step may have here: one descriptor a phone in the generator, one in the server
# (two in Caddy), within the server's own cap of 16,384 connections.
fd_cap() {
    local s=$1 server=$(( fd_limit - fd_limit / 8 - 200 ))
    [ "$server" -gt 16384 ] && server=16384
    local gen=$(( fd_limit - 300 )) cap
    if [ "$s" = postgres ]; then cap=$(( (fd_limit - 300) / 2 )); [ $((2 * server)) -lt "$cap" ] && cap=$((2 * server))
    else cap=$server; fi
    [ "$gen" -lt "$cap" ] && cap=$gen
    echo "$cap"
}

# run SETUP N: one step; prints its line, appends its JSON, returns 0 when it passes.
run() {
    local s=$1 n=$2 have
    up "$s"
    have=$(wc -l <"$work/$s-players.txt")
    if [ "$have" -lt "$n" ]; then
        $LOAD_PY players --url "$direct" --count $(( n - have )) --prefix "P${have}x" --out "$work/join.json" --txt "$work/join.txt" 2>/dev/null
        cat "$work/join.txt" >>"$work/$s-players.txt"
        stop_all; up "$s"   # a fresh server: its peak RSS is this step's
    fi
    rounds[$s]=$(( ${rounds[$s]:-0} + 1 ))
    local json
    local mix=(--frame "$work/frame-no-code.jpg")
    [ "$requests_only" = 1 ] && mix=(--claim-every 1000000000)
    json=$(nice -n "$nice_level" "$work/phones" --url "$url" --players "$work/$s-players.txt" --codes "$work/$s-codes.txt" --count "$n" \
        --duration "$duration" --round "${rounds[$s]}" "${mix[@]}" --server-pid "$pids" \
        --pool "${GEOQR_CAPACITY_POOL:-64}" --label "$s" 2>>"$work/phones.log")
    stop_all
    echo "$json" >>"$out"
    python3 - "$json" "$requests_only" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
requests_only = sys.argv[2] == "1"
servers = {k: v for k, v in r["processes"].items() if k != "caddy"}
hwm = max(v["hwm_mb"] for v in servers.values())
cpu = sum(v["cpu_pct"] for v in servers.values())
caddy = r["processes"].get("caddy")
c, n = r["claims"], r["news"]
why = []
if not r["ramp_ok"]:
    print(f"{r['label']:8} N={r['phones']:>6}: FAIL: only {r['ramp_open']} streams open after {r['ramp_s']:.0f} s "
          f"(generator CPU {r['ramp_generator_cpu_pct']:.0f}% meanwhile); RSS peak {hwm:.0f} MB", flush=True)
    sys.exit(2)
if not requests_only and (c["p99_ms"] > 100 or c["p99_ms"] < 0): why.append("claims p99 > 100 ms")
if not requests_only and n["within_1s"] < 0.99: why.append("news within 1 s < 99%")
if r["failures"]: why.append(f"{r['failures']} failures")
if hwm >= 1024: why.append("RSS ≥ 1 GB")
ms = lambda v: "never" if v < 0 else f"{v:.0f}"
if requests_only:
    q = r["requests"]
    print(f"{r['label']:8} N={r['phones']:>6}, requests only: positions p50/p99 {ms(q['position']['p50_ms'])}/{ms(q['position']['p99_ms'])} ms, "
          f"lists p50/p99 {ms(q['caches']['p50_ms'])}/{ms(q['caches']['p99_ms'])} ms; failures {r['failures']}; server CPU {cpu:.0f}%, "
          f"generator CPU {r['generator_cpu_pct']:.0f}%; RSS peak {hwm:.0f} MB → " + ("pass" if not why else "FAIL: " + ", ".join(why)), flush=True)
    sys.exit(1 if why else 0)
print(f"{r['label']:8} N={r['phones']:>6}: claims p50/p99 {ms(c['p50_ms'])}/{ms(c['p99_ms'])} ms ({c['sent']}, {c['new_finds']} new); "
      f"news p50/p99 {ms(n['p50_ms'])}/{ms(n['p99_ms'])} ms, {100 * n['within_1s']:.1f}% within 1 s; failures {r['failures']}; "
      f"{r['stream_bytes_per_phone_min'] / 1024:.0f} KB/phone/min; server CPU {cpu:.0f}%"
      + (f" (+ caddy {caddy['cpu_pct']:.0f}%)" if caddy else "")
      + f", generator CPU {r['generator_cpu_pct']:.0f}%; RSS peak {hwm:.0f} MB; stolen {r.get('steal_pct', 0):.0f}% → "
      + ("pass" if not why else "FAIL: " + ", ".join(why)), flush=True)
sys.exit(2 if not r["ramp_ok"] else 1 if why else 0)
PY
}

# search SETUP: the steps up to --max and the fd cap, then a little bisection.
search() {
    local s=$1 cap best=0 worst=0 n
    cap=$(fd_cap "$s")
    echo "== $s: $GEOQR, ${duration} s a step, nice $nice_level, up to $max phones (descriptors allow $cap); load average $(cut -d' ' -f1-3 /proc/loadavg) =="
    for n in $steps; do
        [ "$n" -gt "$max" ] && break
        if [ "$n" -gt "$cap" ]; then echo "$s N=$n: skipped, past what $fd_limit descriptors allow ($cap)"; break; fi
        status=0; run "$s" "$n" || status=$?
        if [ "$status" = 0 ]; then [ "$worst" = 0 ] && best=$n; continue; fi
        [ "$worst" = 0 ] && worst=$n
        # --all goes on past a failure (for the table), not past streams that would not all open
        [ "$all" = 1 ] && [ "$status" != 2 ] || break
    done
    if [ "$quick" = 0 ] && [ "$all" = 0 ] && [ "$worst" -gt 0 ]; then
        for _ in 1 2; do
            n=$(( (best + worst) / 2 / 100 * 100 ))
            [ "$n" -le "$best" ] && break
            if run "$s" "$n"; then best=$n; else worst=$n; fi
        done
    fi
    echo "== $s: largest N that passed: $best$([ "$worst" -gt 0 ] && echo " (failed at $worst)") =="
}

declare -A port=() rounds=()
setups=$([ "$setup" = both ] && echo "sqlite postgres" || echo "$setup")
for s in $setups; do
    if [ "$s" = postgres ]; then
        base=${GEOQR_TEST_POSTGRES%%\?*}
        db=geoqr_capacity_$$
        psql -q "$GEOQR_TEST_POSTGRES" -c "CREATE DATABASE $db"
        export GEOQR_STORE="${base%/*}/$db${GEOQR_TEST_POSTGRES#"$base"}"
    else
        unset GEOQR_STORE
    fi
    : >"$work/$s-players.txt"
    up "$s"
    # Codes are signed with the data folder's secret: each setup has its own.
    "$GEOQR_BIN" code "$hunt" -o "$work/$s-code-png" --data "$work/$s" >/dev/null
    "$GEOQR_BIN" decode "$work/$s-code-png" --json >"$work/$s-decoded.json"
    $LOAD_PY codes --url "$direct" --decoded "$work/$s-decoded.json" --out-json "$work/$s-codes.json" --out-txt "$work/$s-codes.txt"
    [ -f "$work/frame-no-code.jpg" ] || python3 Benchmarks/load/make-frames.py "$(ls "$work/$s-code-png"/*.png | head -1)" "$work" >/dev/null
    stop_all
    search "$s"
done

echo
echo "| setup | N | claims p50 / p99 | news p50 / p99, within 1 s | failures | stream KB/phone/min | server CPU | generator CPU | server RSS peak | pass |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
python3 - "$out" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    servers = {k: v for k, v in r["processes"].items() if k != "caddy"}
    hwm = max(v["hwm_mb"] for v in servers.values())
    cpu = sum(v["cpu_pct"] for v in servers.values())
    caddy = r["processes"].get("caddy")
    c, n = r["claims"], r["news"]
    if not r["ramp_ok"]:
        print(f"| {r['label']} | {r['phones']:,} | only {r['ramp_open']:,} streams open after {r['ramp_s']:.0f} s | | | | | "
              f"{r['ramp_generator_cpu_pct']:.0f}% (ramp) | {hwm:,.0f} MB | no |")
        continue
    ok = r["ramp_ok"] and 0 <= c["p99_ms"] <= 100 and n["within_1s"] >= 0.99 and not r["failures"] and hwm < 1024
    ms = lambda v: "never" if v < 0 else f"{v:.0f}"
    print(f"| {r['label']} | {r['phones']:,} | {ms(c['p50_ms'])} / {ms(c['p99_ms'])} ms | {ms(n['p50_ms'])} / {ms(n['p99_ms'])} ms, "
          f"{100 * n['within_1s']:.1f}% | {r['failures']} | {r['stream_bytes_per_phone_min'] / 1024:,.0f} | {cpu:.0f}%"
          + (f" (+ Caddy {caddy['cpu_pct']:.0f}%)" if caddy else "")
          + f" | {r['generator_cpu_pct']:.0f}% | {hwm:,.0f} MB | {'yes' if ok else 'no'} |")
PY
echo
echo "JSON lines: $out"
