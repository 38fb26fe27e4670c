#!/usr/bin/env bash
# The rate limiter's cost as its table grows: a release `geoqr serve` with its rate limits on,
# behind --behind-proxy 127.0.0.1, answers empty joins from a new IPv6 /64 each (wrk with
# Benchmarks/load/spray.lua, 2 threads, 16 connections) for SECONDS; prints the requests a second
# in each 5-second slice, so a limiter whose cost grows with its table shows a falling rate, and
# the server's CPU seconds per 1,000 requests.
#
#   Benchmarks/limiter.sh [--bin GEOQR] [--seconds S]     (default: .build/release/geoqr, 30 s)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/geoqr seconds=30
while [[ $# -gt 0 ]]; do
    case $1 in
        --bin) bin=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--bin GEOQR] [--seconds S]" >&2; exit 2 ;;
    esac
    shift
done
work=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-limiter.XXXXXX")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --hunt demo --data "$work/data" --port "$port" --behind-proxy 127.0.0.1 >"$work/serve.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && break
    kill -0 $pid 2>/dev/null || { tail -20 "$work/serve.log" >&2; exit 1; }
    sleep 0.1
done
cpu() { awk '{print $14 + $15}' /proc/$pid/stat; }
tick=$(getconf CLK_TCK)
total=0 cpu_total=0
echo "slice (s) | requests/s | server CPU ms per 1,000 requests"
for ((t = 0; t < seconds; t += 5)); do
    before=$(cpu)
    out=$(SPRAY_RUN=$((t / 5)) wrk -t2 -c16 -d5s -s Benchmarks/load/spray.lua "http://127.0.0.1:$port" 2>&1)
    after=$(cpu)
    n=$(echo "$out" | awk '/requests in/ {print $1}')
    rate=$(echo "$out" | awk '/Requests\/sec/ {printf "%.0f", $2}')
    total=$((total + n)); cpu_total=$((cpu_total + after - before))
    echo "$t–$((t + 5)) | $rate | $(( (after - before) * 1000 / tick * 1000 / (n > 0 ? n : 1) ))"
done
echo "all: $total requests, $(( cpu_total * 1000 / tick )) ms of server CPU"
