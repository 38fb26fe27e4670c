# Sourced by the server benchmark, load and crash scripts: start and stop a release
# `geoqr serve --load-test` on loopback over a data directory, and make the demo hunt's codes.
#   GEOQR_BIN   the geoqr to run (default .build/release/geoqr)

GEOQR_BIN=${GEOQR_BIN:-.build/release/geoqr}
LOAD_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOAD_PY="python3 $LOAD_DIR/geoqr_load.py"
export GEOQR_LUA=$LOAD_DIR

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve_start DATA PORT LOG: starts the server in the background, sets SERVER_PID, waits until
# it answers (at most 60 s).
serve_start() {
    local data=$1 port=$2 log=$3
    "$GEOQR_BIN" serve --hunt demo --data "$data" --port "$port" --load-test >>"$log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 600); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/api/hunt" 2>/dev/null; then return 0; fi
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then echo "geoqr serve exited; log:" >&2; tail -20 "$log" >&2; return 1; fi
        sleep 0.1
    done
    echo "geoqr serve did not answer within 60 s" >&2
    return 1
}

# serve_stop: SIGTERM (graceful) and wait.
serve_stop() {
    if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=
}

# make_codes DATA PORT DIR: DIR/codes.json and DIR/codes.txt for the demo hunt, signed with
# DATA's secret (the server must be running on PORT).
make_codes() {
    local data=$1 port=$2 dir=$3
    "$GEOQR_BIN" code demo -o "$dir/code-png" --data "$data" >/dev/null
    "$GEOQR_BIN" decode "$dir/code-png" --json >"$dir/decoded.json"
    $LOAD_PY codes --url "http://127.0.0.1:$port" --decoded "$dir/decoded.json" \
        --out-json "$dir/codes.json" --out-txt "$dir/codes.txt"
}

# make_photo DIR: DIR/photo.jpg (12 MP, about 3 MB, the code of A1 and EXIF GPS at A1) and
# DIR/photo.multipart + DIR/photo.ctype for wrk. Needs codes.txt.
make_photo() {
    local dir=$1
    local a1; a1=$(awk '$1 == "A1" { print $2, $3 "," $4 }' "$dir/codes.txt")
    python3 "$LOAD_DIR/make-photo.py" --code "${a1% *}" --at "${a1#* }" -o "$dir/photo.jpg"
    python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
boundary = "geoqrbenchboundary7MA4YWxkTrZu0gW"
data = open(f"{d}/photo.jpg", "rb").read()
body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"IMG_0001.jpg\"\r\n"
        f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
open(f"{d}/photo.multipart", "wb").write(body)
open(f"{d}/photo.ctype", "w").write(f"multipart/form-data; boundary={boundary}\n")
PY
}

# serve_demo DATA WORK: what every load script starts from. The server on a free port over DATA
# (sets port, url and SERVER_PID; its log is WORK/serve.log), then the demo hunt's codes and the
# photo in WORK.
serve_demo() {
    local data=$1 work=$2
    port=$(free_port)
    url=http://127.0.0.1:$port
    serve_start "$data" "$port" "$work/serve.log"
    make_codes "$data" "$port" "$work"
    make_photo "$work"
}

# rss_kb PID and fds PID: the server's resident memory and open descriptors, from /proc.
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
