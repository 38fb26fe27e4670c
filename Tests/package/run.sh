#!/usr/bin/env bash
# The Debian package, end to end with real parts: scripts/package makes the .deb from a geoqr
# already built (no Swift build of geoqr), lintian finds no error in it, and it is installed into
# a clean Debian 12 root the way `apt install ./geoqr_….deb` does (apt resolves its Depends from
# Debian's mirror). Then, in that root: `geoqr serve --help`, `man geoqr-serve`, the user geoqr
# and /var/lib/geoqr made by postinst, and a hunt played for real (geoqr serve started inside the
# root on a loopback port, a player joined over HTTP from this machine, a code made with
# `geoqr code`, claimed, judged claimable). Last, `apt-get remove` takes the binary and the man
# pages and keeps the data; `apt-get purge` takes /var/lib/geoqr too.
#
#   Tests/package/run.sh GEOQR_BIN [ROOT]
#
# ROOT is a root Tests/package/prepare-root.sh made (scripts/test makes it in the background
# from its start, and waits for it before this step); without it, one is made here. The root,
# /proc mounted in it and every process started are removed on exit, pass or fail. Needs root,
# debootstrap, dpkg-dev, patchelf, lintian, curl and python3 (scripts/apt-packages-test.txt).
set -euo pipefail
GEOQR_BIN=${1:?usage: Tests/package/run.sh GEOQR_BIN [ROOT]}
if [[ $GEOQR_BIN != /* ]]; then GEOQR_BIN=$PWD/$GEOQR_BIN; fi
root=${2:-}
if [[ -n $root && $root != /* ]]; then root=$PWD/$root; fi
cd "$(dirname "$0")/../.."
[[ $(id -u) == 0 ]] || { echo "not ok - Tests/package/run.sh needs root (debootstrap, chroot)"; exit 1; }
for tool in debootstrap lintian dpkg-deb patchelf curl python3; do
    command -v "$tool" >/dev/null || { echo "not ok - $tool is not installed (scripts/apt-packages-test.txt)"; exit 1; }
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/geoqr-package-test-XXXXXX")
[[ -n $root ]] || root=$tmp/root
server_pid=""
failures=0
cleanup() {
    local status=$?
    [[ -n $server_pid ]] && { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
    if mountpoint -q "$root/proc" 2>/dev/null; then umount "$root/proc" || umount -l "$root/proc" || true; fi
    if [[ $status -ne 0 || $failures -ne 0 ]]; then
        for log in prepare-root apt-install serve lintian; do
            [[ -f $tmp/$log.log ]] || continue
            echo "# ---- last lines of $log.log ----"
            tail -n 30 "$tmp/$log.log" | sed 's/^/# /'
        done
    fi
    # --one-file-system: never into a mount left behind.
    [[ -d $root ]] && rm -rf --one-file-system "$root"
    rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT

passes=0
ok() { echo "ok - $*"; passes=$((passes + 1)); }
not_ok() { echo "not ok - $*"; failures=$((failures + 1)); }
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}
fatal() { not_ok "$*"; exit 1; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    ASAN_OPTIONS="$ASAN_OPTIONS" "$@"; }

# ---- the package --------------------------------------------------------------------------

from=$SECONDS
# --fast: xz -6 over the 200 MB of an ASan build takes minutes on two busy cores; gzip -1 seconds.
deb=$(scripts/package --fast --binary "$GEOQR_BIN" --output "$tmp" 2>"$tmp/package.log") ||
    { cat "$tmp/package.log"; fatal "scripts/package --binary $GEOQR_BIN"; }
ok "scripts/package made $(basename "$deb") ($(du -h "$deb" | cut -f1)) in $((SECONDS - from)) s"
sed 's/^/# /' "$tmp/package.log"

bad=0
scripts/package --binary /nonexistent/geoqr --output "$tmp" >"$tmp/bad.out" 2>&1 || bad=$?
check "scripts/package --binary /nonexistent/geoqr fails in one line (exit $bad: $(head -c 120 "$tmp/bad.out"))" \
    test "$bad" -ne 0 -a "$(wc -l <"$tmp/bad.out")" -eq 1

from=$SECONDS
lintian_status=0
lintian --fail-on error "$deb" >"$tmp/lintian.log" 2>&1 || lintian_status=$?
check "lintian reports no error (exit $lintian_status, $(grep -c '^E:' "$tmp/lintian.log" || true) E:, $(grep -c '^W:' "$tmp/lintian.log" || true) W:, $((SECONDS - from)) s)" \
    test "$lintian_status" = 0
{ grep '^[EW]:' "$tmp/lintian.log" || true; } | sed 's/^/# /' | head -n 20

contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/geoqr ./usr/share/man/man1/geoqr-serve.1.gz ./usr/share/bash-completion/completions/geoqr \
    ./usr/share/zsh/vendor-completions/_geoqr ./usr/share/fish/vendor_completions.d/geoqr.fish \
    ./lib/systemd/system/geoqr.service ./usr/share/doc/geoqr/examples/Caddyfile \
    ./usr/share/doc/geoqr/copyright ./usr/share/doc/geoqr/changelog.Debian.gz; do
    check "the package holds $path" grep -q " root/root .* ${path//./\\.}$" <<<"$contents"
done
check "the binary in the package is stripped" \
    bash -c "dpkg-deb --fsys-tarfile '$deb' | tar -xO ./usr/bin/geoqr >'$tmp/geoqr' && ! readelf -S '$tmp/geoqr' | grep -q '\.debug_info\|\.symtab'"
depends=$(dpkg-deb --field "$deb" Depends)
for lib in libzbar0 libqrencode4 libcairo2 libheif1 libexif12 libpng16-16 libjpeg62-turbo libxml2; do
    check "Depends names $lib" grep -Eq "(^|, )$lib( |,|$)" <<<"$depends"
done
check "Depends names no -dev package ($depends)" bash -c "! grep -q -- '-dev\b' <<<'$depends'"

# ---- into a clean Debian 12 root ----------------------------------------------------------

from=$SECONDS
if [[ ! -x $root/usr/bin/apt-get ]]; then
    Tests/package/prepare-root.sh "$root" >"$tmp/prepare-root.log" 2>&1 || fatal "Tests/package/prepare-root.sh $root"
fi
ok "a Debian 12 minbase root is ready in $root (waited $((SECONDS - from)) s)"
check "the root's / is 0755, as on a Debian system (users other than root reach its files)" test "$(stat -c %a "$root")" = 755
mount -t proc proc "$root/proc"

cp "$deb" "$root/tmp/"
from=$SECONDS
installed=0
# What `apt install ./geoqr_….deb` does; recommends (Caddy) are left out, as this test runs none.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")" \
    >"$tmp/apt-install.log" 2>&1 || installed=$?
check "apt-get install ./$(basename "$deb") in the root, Depends from Debian (exit $installed, $((SECONDS - from)) s)" \
    test "$installed" = 0
[[ $installed == 0 ]] || exit 1
check "dpkg says geoqr is installed" bash -c "chroot '$root' dpkg-query -W -f='\${Status}' geoqr | grep -q 'install ok installed'"

help=$(in_root geoqr serve --help 2>&1 || true)
check "geoqr serve --help runs in the root (from /usr/bin, Swift runtime from /usr/lib/geoqr)" \
    grep -q -- '--behind-proxy' <<<"$help"
libs=$(in_root ldd /usr/bin/geoqr 2>&1 || true)
check "every library geoqr loads is found in the root, none from /opt/swift" \
    bash -c '! grep -q "not found\|/opt/swift" <<<"$1" && grep -q "/usr/lib/geoqr/libswiftCore.so" <<<"$1"' _ "$libs"
page=$(in_root man -P cat geoqr-serve 2>&1 || true)
check "man geoqr-serve renders in the root (its synopsis: geoqr serve … --public-url)" \
    bash -c 'grep -q "geoqr serve" <<<"$1" && grep -q -- "--public-url" <<<"$1"' _ "$page"
check "whatis finds geoqr-serve (man-db's index, from the package's trigger)" \
    bash -c "chroot '$root' whatis geoqr-serve | grep -q '^geoqr-serve '"
user=$(in_root getent passwd geoqr || true)
uid=$(cut -d: -f3 <<<"$user")
gid=$(cut -d: -f4 <<<"$user")
check "postinst made the system user geoqr ($user)" test -n "$uid" -a "${uid:-1000}" -lt 1000
# Numeric: the root's uid 100 may be another name on this machine.
check "postinst made /var/lib/geoqr, owned by geoqr, mode 700 (uid and mode: $(stat -c '%u %a' "$root/var/lib/geoqr" 2>&1))" \
    test "$(stat -c '%u %a' "$root/var/lib/geoqr" 2>/dev/null)" = "$uid 700"

# ---- a hunt played against the installed binary --------------------------------------------

as_geoqr() {
    local run=(chroot --userspec="$uid:$gid" --groups="$gid" "$root" /usr/bin/env -i PATH=/usr/bin:/bin
        LANG=C.UTF-8 HOME=/var/lib/geoqr GEOQR_CACHES=/etc/geoqr/caches ASAN_OPTIONS="$ASAN_OPTIONS" "$@")
    if [[ -n ${exec_as:-} ]]; then exec "${run[@]}"; else "${run[@]}"; fi
}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The first use makes the hunt's secret in /var/lib/geoqr; the server signs and checks with it.
as_geoqr geoqr code demo A1 -o /tmp/a1.png --size 8 --data /var/lib/geoqr
code=$(as_geoqr geoqr decode /tmp/a1.png --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["codes"][0]["text"])')
read -r a1_lat a1_lon < <(as_geoqr geoqr caches list demo --json |
    python3 -c 'import json, sys; a1 = [c for c in json.load(sys.stdin)["caches"] if c["id"] == "A1"][0]; print(a1["lat"], a1["lon"])')
check "geoqr code and geoqr decode in the root give A1's code ($code)" test -n "$code"

# exec: $! is geoqr itself (chroot and env exec too), so killing it stops the server; a
# backgrounded function would be a bash of its own, and geoqr outlived its kill.
(exec_as=1 as_geoqr geoqr serve --hunt demo --data /var/lib/geoqr --port "$port") >"$tmp/serve.log" 2>&1 &
server_pid=$!
deadline=$((SECONDS + 90))
until curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; do
    kill -0 "$server_pid" 2>/dev/null || fatal "geoqr serve in the root exited (serve.log below)"
    ((SECONDS < deadline)) || fatal "geoqr serve in the root answers /healthz on 127.0.0.1:$port (waited 90 s)"
    sleep 0.3
done
ok "geoqr serve, started in the root as geoqr, answers /healthz on 127.0.0.1:$port"

# api METHOD PATH JSON [curl options…]: prints the status, then the body on the next line.
api() {
    local method=$1 path=$2 body=$3
    shift 3
    local out
    out=$(curl -s --max-time 20 -X "$method" -H 'Content-Type: application/json' -w '\n%{http_code}' \
        --data "$body" "$@" "http://127.0.0.1:$port$path" || true)
    printf '%s\n%s\n' "${out##*$'\n'}" "${out%$'\n'*}"
}
json() { python3 -c 'import json, sys
try: print(json.load(sys.stdin).get(sys.argv[1], ""))
except Exception: print("")' "$1"; }
{ read -r status; read -r body; } < <(api POST /api/join '{"name":"Ada","pin":"4321","team":"Foxes"}')
token=$(json token <<<"$body")
check "POST /api/join from this machine is 201 with a token (got $status)" test "$status" = 201 -a -n "$token"
claim=$(printf '{"code":"%s","latitude":%s,"longitude":%s,"accuracy":5}' "$code" "$a1_lat" "$a1_lon")
{ read -r status; read -r body; } < <(api POST /api/claims "$claim" -H "Authorization: Bearer $token")
verdict=$(json verdict <<<"$body")
check "POST /api/claims of A1 at A1 answers verdict claimable (HTTP $status, verdict ${verdict:-none})" \
    test "$verdict" = claimable
check "the ledger in /var/lib/geoqr belongs to geoqr" \
    bash -c "[ -z \"\$(find '$root/var/lib/geoqr' ! -user '$uid' -print -quit)\" ]"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
check "geoqr serve in the root stopped when told to (nothing of it left running)" \
    bash -c "! pgrep -f -- '[g]eoqr serve --hunt demo --data /var/lib/geoqr --port $port' >/dev/null"

# ---- remove, then purge ---------------------------------------------------------------------

in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y geoqr >"$tmp/apt-remove.log" 2>&1 ||
    not_ok "apt-get remove geoqr ($(tail -n 1 "$tmp/apt-remove.log"))"
check "after remove: /usr/bin/geoqr is gone" test ! -e "$root/usr/bin/geoqr"
check "after remove: the man pages are gone" bash -c "! ls '$root'/usr/share/man/man1/geoqr* 2>/dev/null"
check "after remove: /usr/lib/geoqr is gone" test ! -e "$root/usr/lib/geoqr"
check "after remove: /var/lib/geoqr (the hunt's data) is kept" test -d "$root/var/lib/geoqr"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y geoqr >"$tmp/apt-purge.log" 2>&1 ||
    not_ok "apt-get purge geoqr ($(tail -n 1 "$tmp/apt-purge.log"))"
check "after purge: /var/lib/geoqr is gone" test ! -e "$root/var/lib/geoqr"
check "after purge: /etc/geoqr and /etc/default/geoqr are gone" test ! -e "$root/etc/geoqr" -a ! -e "$root/etc/default/geoqr"
check "after purge: dpkg knows no geoqr" bash -c "! chroot '$root' dpkg-query -W -f='\${Status}' geoqr 2>/dev/null | grep -q installed"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
