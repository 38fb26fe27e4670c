#!/usr/bin/env bash
# The player's first load, uncompressed (issue 13: under 250 KB): starts a release `geoqr serve`
# for the demo hunt on a loopback port and runs Benchmarks/page-weight.py against it.
#   Benchmarks/page-weight.sh [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product geoqr >/dev/null 2>&1 || swift build -c release --product geoqr
bin="$(swift build -c release --show-bin-path)/geoqr"
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --hunt demo --data "$work/data" --port "$port" >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/api/hunt" >/dev/null && break; sleep 0.2; done
python3 Benchmarks/page-weight.py "http://127.0.0.1:$port" "$@"
