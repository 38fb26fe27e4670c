#!/usr/bin/env bash
# End-to-end test of the public-server setup in deploy/: real parts only, all on loopback.
#
#   Tests/deploy/run.sh [GEOQR_BIN]     (default: $GEOQR_BIN, else a debug build made here)
#
# - pebble (Debian's, Let's Encrypt's test ACME server) is the certificate authority. It validates
#   for real: it resolves hunt.example.test with pebble-challtestsrv's mock DNS (every name is
#   127.0.0.1; its HTTP and TLS challenge responders are off) and fetches the http-01 or
#   tls-alpn-01 answer from Caddy itself, on Caddy's test ports. Only DNS is faked.
# - caddy (Debian's, run here, not through systemd) runs deploy/Caddyfile itself, with the
#   domain, the upstream port and test-only global options (ports, CA, storage) filled in.
# - geoqr serve runs the demo hunt with --public-url and --behind-proxy 127.0.0.1.
# - curl, trusting only pebble's root, plays through Caddy over HTTPS: health, join, a live
#   event stream, a claim; openssl checks who issued the certificate; a client on 127.0.0.2
#   going to geoqr directly with forged X-Forwarded-For headers is locked out by its own
#   address, while the same player through Caddy still signs in; through Caddy, a guesser's
#   lockout is the guesser's alone; a request sent while geoqr restarts waits in Caddy.
#
# Prints one line per check (`ok - …` / `not ok - …`); exits non-zero when any fails. Every
# process it starts is stopped on exit; the temporary folder is removed after a pass and kept,
# with the tail of each log printed, after a failure. Needs caddy, pebble, openssl, curl and
# python3 (scripts/apt-packages-deploy-test.txt); no root, no fixed ports, no network.
set -euo pipefail
GEOQR_BIN=${1:-${GEOQR_BIN:-}}
# A relative path names a file from where the script was called, not from the repository.
if [[ $GEOQR_BIN == */* && $GEOQR_BIN != /* ]]; then GEOQR_BIN=$PWD/$GEOQR_BIN; fi
cd "$(dirname "$0")/../.."

if [[ -z $GEOQR_BIN ]]; then
    swift build --product geoqr >/dev/null 2>&1 || swift build --product geoqr   # quiet unless it fails
    GEOQR_BIN="$(swift build --show-bin-path)/geoqr"
fi
for tool in "$GEOQR_BIN" caddy pebble pebble-challtestsrv openssl curl python3; do
    command -v "$tool" >/dev/null || { echo "not ok - $tool is not installed (scripts/apt-packages-deploy-test.txt)"; exit 1; }
done

DOMAIN=hunt.example.test
tmp=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-deploy-XXXXXX")
pids=()
failures=0

cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ $status -eq 0 && $failures -eq 0 ]]; then
        rm -rf "$tmp"
    else
        for log in pebble challtestsrv caddy geoqr; do
            [[ -f $tmp/$log.log ]] || continue
            echo "# ---- last lines of $log.log ----"
            tail -n 40 "$tmp/$log.log" | sed 's/^/# /'
        done
        echo "# files kept in $tmp"
    fi
}
trap cleanup EXIT

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failures=$((failures + 1)); }
# check DESCRIPTION COMMAND…: ok when the command succeeds.
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}
fatal() { not_ok "$*"; exit 1; }

# Waits up to $2 seconds for the command after it to succeed.
wait_for() {
    local what=$1 seconds=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || fatal "$what (waited ${seconds} s)"
        sleep 0.3
    done
}

# Free loopback ports, all held at once so none is handed out twice. The DNS port is free for
# both TCP and UDP.
read -r acme_port pebble_mgmt_port dns_port challtest_mgmt_port http_port https_port geoqr_port < <(python3 - <<'EOF'
import socket
held, ports = [], []
while len(ports) < 7:
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    port = tcp.getsockname()[1]
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        udp.bind(("127.0.0.1", port))
    except OSError:
        tcp.close()
        continue
    held += [tcp, udp]
    ports.append(port)
print(*ports)
EOF
)

# ---- geoqr: the demo hunt, a real code for A1 and A1's coordinates --------------------------

# Read whole, not piped into grep -q: grep leaving at the first match would end geoqr with
# SIGPIPE, which pipefail takes for a failure.
serve_help=$("$GEOQR_BIN" serve --help)
[[ $serve_help == *--behind-proxy* && $serve_help == *--public-url* ]] ||
    fatal "geoqr serve has --behind-proxy and --public-url (this build of $GEOQR_BIN has not)"

data=$tmp/data
hunt=caches/demo.json
# The first use makes the hunt's secret in $data; geoqr serve signs and checks with the same one.
"$GEOQR_BIN" code "$hunt" A1 -o "$tmp/a1.png" --size 8 --data "$data"
code=$("$GEOQR_BIN" decode "$tmp/a1.png" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["codes"][0]["text"])')
read -r a1_lat a1_lon < <("$GEOQR_BIN" caches list "$hunt" --json |
    python3 -c 'import json, sys; a1 = [c for c in json.load(sys.stdin)["caches"] if c["id"] == "A1"][0]; print(a1["lat"], a1["lon"])')

public_url="https://$DOMAIN:$https_port"
start_geoqr() {
    "$GEOQR_BIN" serve --hunt "$hunt" --data "$data" --port "$geoqr_port" \
        --public-url "$public_url" --behind-proxy 127.0.0.1 >>"$tmp/geoqr.log" 2>&1 &
    geoqr_pid=$!
    pids+=("$geoqr_pid")
}
start_geoqr
wait_for "geoqr serve answers /healthz on 127.0.0.1:$geoqr_port" 60 \
    curl -sf -o /dev/null "http://127.0.0.1:$geoqr_port/healthz"

# ---- pebble: the ACME server, its mock DNS, and the roots a client must trust ---------------

# Pebble's own HTTPS listener (its ACME directory) needs a certificate: a throwaway one made here.
# Caddy trusts it (acme_ca_root) to talk ACME; players never see it.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=pebble listener (GeoQR deploy test)" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$tmp/pebble-listener-key.pem" -out "$tmp/pebble-listener.pem" 2>/dev/null
cat >"$tmp/pebble.json" <<EOF
{
  "pebble": {
    "listenAddress": "127.0.0.1:$acme_port",
    "managementListenAddress": "127.0.0.1:$pebble_mgmt_port",
    "certificate": "$tmp/pebble-listener.pem",
    "privateKey": "$tmp/pebble-listener-key.pem",
    "httpPort": $http_port,
    "tlsPort": $https_port,
    "ocspResponderURL": "",
    "externalAccountBindingRequired": false
  }
}
EOF
# Mock DNS only: every A query answers 127.0.0.1, no AAAA; the challenge responders are off,
# so the only thing that can answer pebble's validation is Caddy.
pebble-challtestsrv -dns01 "127.0.0.1:$dns_port" -http01 "" -https01 "" -tlsalpn01 "" \
    -management "127.0.0.1:$challtest_mgmt_port" -defaultIPv4 127.0.0.1 -defaultIPv6 "" \
    >"$tmp/challtestsrv.log" 2>&1 &
pids+=($!)
# No random sleeps before validating, and no deliberately rejected nonces: the test is about
# our setup, not about Caddy's retries.
PEBBLE_VA_NOSLEEP=1 PEBBLE_WFE_NONCEREJECT=0 \
    pebble -config "$tmp/pebble.json" -dnsserver "127.0.0.1:$dns_port" >"$tmp/pebble.log" 2>&1 &
pids+=($!)
wait_for "pebble serves its ACME directory on 127.0.0.1:$acme_port" 30 \
    curl -sf --cacert "$tmp/pebble-listener.pem" -o /dev/null "https://127.0.0.1:$acme_port/dir"
# Pebble makes a new root every run: what it issues chains to this one only. (Caddy sends
# pebble's intermediate with its certificate, so the root is all a client needs.)
curl -sf --cacert "$tmp/pebble-listener.pem" -o "$tmp/root.pem" "https://127.0.0.1:$pebble_mgmt_port/roots/0"

# ---- caddy: deploy/Caddyfile with the test's domain, upstream and global options ------------

{ grep -q 'hunt\.example\.org' deploy/Caddyfile && grep -q '127\.0\.0\.1:8080' deploy/Caddyfile; } ||
    fatal "deploy/Caddyfile names hunt.example.org and 127.0.0.1:8080 (the test fills in its own)"
# Global options for the test, put at the top of the Caddyfile's options block: loopback only,
# free ports, pebble as the CA, every file Caddy writes in the temporary folder, no admin API.
options="	default_bind 127.0.0.1
	http_port $http_port
	https_port $https_port
	acme_ca https://127.0.0.1:$acme_port/dir
	acme_ca_root $tmp/pebble-listener.pem
	storage file_system {
		root $tmp/caddy-storage
	}
	admin off"
OPTIONS=$options awk '!done && /^\{[[:space:]]*$/ { print; print ENVIRON["OPTIONS"]; done = 1; next } { print }' deploy/Caddyfile |
    sed -e "s/hunt\.example\.org/$DOMAIN/g" -e "s/127\.0\.0\.1:8080/127.0.0.1:$geoqr_port/g" >"$tmp/Caddyfile"
grep -q "acme_ca https://127.0.0.1:$acme_port/dir" "$tmp/Caddyfile" ||
    fatal "deploy/Caddyfile opens with a global options block ({ on a line of its own)"
HOME=$tmp XDG_CONFIG_HOME=$tmp/caddy-config XDG_DATA_HOME=$tmp/caddy-data \
    caddy run --config "$tmp/Caddyfile" --adapter caddyfile >"$tmp/caddy.log" 2>&1 &
pids+=($!)

# The client: trusts pebble's root and nothing else, and finds the domain on 127.0.0.1.
client=(curl -s --cacert "$tmp/root.pem" --resolve "$DOMAIN:$https_port:127.0.0.1" --max-time 20)
base="https://$DOMAIN:$https_port"

wait_for "Caddy serves $DOMAIN over HTTPS with a certificate pebble issued" 120 \
    "${client[@]}" -f -o /dev/null "$base/healthz"
challenge=$(grep -o '"challenge_type":"[a-z0-9-]*"' "$tmp/caddy.log" | head -n 1 | cut -d'"' -f4 || true)
if grep -q 'certificate obtained successfully' "$tmp/caddy.log" && grep -q "set VALID by completed challenge" "$tmp/pebble.log"; then
    ok "Caddy obtained a certificate for $DOMAIN from pebble by ACME (${challenge:-?} challenge, validated by pebble)"
else
    not_ok "Caddy's and pebble's logs show a validated ACME order"
fi

# ---- the certificate ----------------------------------------------------------------------

status=$("${client[@]}" -o /dev/null -w '%{http_code}' "$base/healthz" || true)
check "GET /healthz through Caddy over HTTPS is 200 (got $status)" test "$status" = 200

untrusted=0
curl -s --resolve "$DOMAIN:$https_port:127.0.0.1" --max-time 20 -o /dev/null "$base/healthz" || untrusted=$?
check "curl with the system's CAs alone refuses the certificate (curl exit $untrusted: 60 is an untrusted certificate)" \
    test "$untrusted" = 60

openssl s_client -connect "127.0.0.1:$https_port" -servername "$DOMAIN" -CAfile "$tmp/root.pem" \
    -verify_hostname "$DOMAIN" -verify_return_error -showcerts </dev/null >"$tmp/s_client.txt" 2>&1 || true
openssl x509 -in "$tmp/s_client.txt" -noout -issuer -ext subjectAltName >"$tmp/leaf.txt" 2>&1 || true
issuer=$(grep '^issuer' "$tmp/leaf.txt" || true)
check "the certificate's issuer is pebble's intermediate ($issuer)" grep -q 'issuer=.*Pebble Intermediate CA' "$tmp/leaf.txt"
check "the certificate names $DOMAIN" grep -q "DNS:$DOMAIN" "$tmp/leaf.txt"
check "openssl verifies the chain to pebble's root and the name (Verify return code: 0)" \
    grep -q 'Verify return code: 0 (ok)' "$tmp/s_client.txt"
root_subject=$(openssl x509 -in "$tmp/root.pem" -noout -subject)
check "the root the client trusts is pebble's ($root_subject)" grep -q 'Pebble Root CA' <<<"$root_subject"

redirect=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' --resolve "$DOMAIN:$http_port:127.0.0.1" \
    "http://$DOMAIN:$http_port/healthz" || true)
check "plain HTTP redirects to HTTPS ($redirect)" grep -Eq "^30[178] https://$DOMAIN(:$https_port)?/healthz$" <<<"$redirect"

check "geoqr announces the public URL $public_url" grep -q "$public_url" "$tmp/geoqr.log"

# ---- playing through Caddy ----------------------------------------------------------------

# api METHOD PATH JSON [curl options…]: prints the status, then the body on the next line.
api() {
    local method=$1 path=$2 body=$3
    shift 3
    local args=(-X "$method" -H 'Content-Type: application/json' -w '\n%{http_code}' "$@")
    [[ -n $body ]] && args+=(--data "$body")
    local out
    out=$("${client[@]}" "${args[@]}" "$base$path" || true)
    printf '%s\n%s\n' "${out##*$'\n'}" "${out%$'\n'*}"
}
# json FIELD: the field of the JSON object on standard input ("" when absent or not JSON).
json() { python3 -c 'import json, sys
try: print(json.load(sys.stdin).get(sys.argv[1], ""))
except Exception: print("")' "$1"; }

{ read -r status; read -r body; } < <(api POST /api/join '{"name":"Ada","pin":"4321","team":"Foxes"}')
token=$(json token <<<"$body")
check "POST /api/join through Caddy is 201 with a token (got $status)" test "$status" = 201 -a -n "$token"

# The live stream, opened before the claim: its "find" event must come through Caddy as it
# happens (flush_interval -1), not when a buffer fills or the stream ends.
"${client[@]}" -N --max-time 60 "$base/api/live?token=$token" >"$tmp/live.txt" 2>&1 &
live_pid=$!
pids+=("$live_pid")
wait_for "the live stream through Caddy opens with the standings" 15 grep -q '^event: standings' "$tmp/live.txt"

claim=$(printf '{"code":"%s","latitude":%s,"longitude":%s,"accuracy":5}' "$code" "$a1_lat" "$a1_lon")
{ read -r status; read -r body; } < <(api POST /api/claims "$claim" -H "Authorization: Bearer $token")
verdict=$(json verdict <<<"$body")
check "POST /api/claims of A1 at A1 through Caddy answers verdict claimable (HTTP $status, verdict ${verdict:-none})" \
    test "$verdict" = claimable

live_ok=0
for _ in $(seq 50); do
    grep -q '^event: find' "$tmp/live.txt" && { live_ok=1; break; }
    sleep 0.1
done
check "the find reaches the open live stream through Caddy within 5 s" test "$live_ok" = 1
kill "$live_pid" 2>/dev/null || true

# ---- X-Forwarded-For from anyone but Caddy is ignored ---------------------------------------

# A client on 127.0.0.2 goes to geoqr directly and claims a new address in every request. geoqr
# trusts the header from 127.0.0.1 (Caddy) only, so all six wrong PINs count against 127.0.0.2:
# five lock it out, and the sixth is refused as locked out.
direct=(curl -s --interface 127.0.0.2 --max-time 20 -H 'Content-Type: application/json' -w '\n%{http_code}')
statuses=()
for i in 1 2 3 4 5 6; do
    out=$("${direct[@]}" -H "X-Forwarded-For: 10.1.2.$i" --data '{"name":"Ada","pin":"0000"}' \
        "http://127.0.0.1:$geoqr_port/api/signin" || true)
    statuses+=("${out##*$'\n'}")
    last_body=${out%$'\n'*}
done
last_error=$(json error <<<"$last_body")
check "six wrong PINs from 127.0.0.2 under six forged X-Forwarded-For addresses: the sixth is 429 locked-out (statuses ${statuses[*]}, error ${last_error:-none})" \
    test "${statuses[5]}" = 429 -a "$last_error" = locked-out
check "the first four of them are refused as wrong PINs (401), not rate limits or lockouts (${statuses[*]:0:4})" \
    test "${statuses[*]:0:4}" = "401 401 401 401"

out=$("${direct[@]}" -H 'X-Forwarded-For: 10.9.9.9' --data '{"name":"Ada","pin":"4321"}' "http://127.0.0.1:$geoqr_port/api/signin" || true)
status=${out##*$'\n'}
check "127.0.0.2 stays locked out with the right PIN and yet another forged address (got $status)" test "$status" = 429

{ read -r status; read -r body; } < <(api POST /api/signin '{"name":"Ada","pin":"4321"}')
check "Ada signs in with her PIN through Caddy while 127.0.0.2 is locked out (got $status)" \
    test "$status" = 200 -a -n "$(json token <<<"$body")"

# Caddy replaces a client's X-Forwarded-For with the address it really sees, so a player cannot
# borrow the locked address (or any other) through Caddy either.
{ read -r status; read -r body; } < <(api POST /api/signin '{"name":"Ada","pin":"4321"}' -H 'X-Forwarded-For: 127.0.0.2')
check "through Caddy a forged X-Forwarded-For: 127.0.0.2 is replaced, and Ada signs in (got $status)" test "$status" = 200

# Through Caddy each player's own address counts: six wrong PINs for Bo from 127.0.0.3 lock out
# 127.0.0.3 for Bo, and Bo on 127.0.0.4 still signs in. (Were geoqr not believing Caddy's
# header, every player would be Caddy's 127.0.0.1, the network Bo joined from, and one guesser
# would lock Bo out of it.) Bo, not Ada: Ada's PIN was already guessed from 127.0.0.2 above, and
# a player guessed at from many networks she never used waits there (README, "Sign-in guessing").
{ read -r status; read -r body; } < <(api POST /api/join '{"name":"Bo","pin":"8765","team":"Foxes"}')
check "Bo joins through Caddy (got $status)" test "$status" = 201
statuses=()
for i in 1 2 3 4 5 6; do
    { read -r status; read -r body; } < <(api POST /api/signin '{"name":"Bo","pin":"0000"}' --interface 127.0.0.3)
    statuses+=("$status")
done
check "through Caddy, six wrong PINs for Bo from 127.0.0.3: the sixth is 429 locked-out (statuses ${statuses[*]}, error $(json error <<<"$body"))" \
    test "${statuses[5]}" = 429 -a "$(json error <<<"$body")" = locked-out
{ read -r status; read -r body; } < <(api POST /api/signin '{"name":"Bo","pin":"8765"}' --interface 127.0.0.4)
check "through Caddy, Bo on 127.0.0.4 signs in while 127.0.0.3 is locked out for Bo: geoqr counts Caddy's X-Forwarded-For (got $status)" \
    test "$status" = 200

# ---- a restart of geoqr is hidden from players ---------------------------------------------

# geoqr stops (as systemd restarts it after a crash). Once Caddy's health check has marked it
# down, a player's request arrives: it waits in Caddy (lb_try_duration) while geoqr starts
# again, and is answered when the next health check finds it up.
health_failures() { grep -c 'health_checker.active.*HTTP request failed' "$tmp/caddy.log" || true; }
caddy_saw_down() { (($(health_failures) > before)); }
before=$(health_failures)
kill "$geoqr_pid"
wait "$geoqr_pid" || true
wait_for "Caddy's health check (/healthz, every 5 s) notices geoqr is down" 15 caddy_saw_down
"${client[@]}" -o /dev/null -w '%{http_code} %{time_total}' "$base/healthz" >"$tmp/during-restart.txt" 2>&1 &
waiting_pid=$!
pids+=("$waiting_pid")
sleep 1
start_geoqr
wait "$waiting_pid" || true
read -r status seconds <"$tmp/during-restart.txt" || true
check "a request sent while geoqr was down (and marked down by Caddy's health check) waits in Caddy and is answered 200 once it is back (got ${status:-none} after ${seconds:-?} s)" \
    test "${status:-}" = 200
check "Caddy's health check then found geoqr up again" grep -q 'health_checker.active.*host is up' "$tmp/caddy.log"

if ((failures > 0)); then
    echo "# $failures check(s) failed"
    exit 1
fi
echo "# all deploy checks passed"
