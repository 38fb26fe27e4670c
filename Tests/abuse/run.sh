#!/usr/bin/env bash
# The hostile-player suite (issue 24): each file starts its own real `geoqr serve` on a loopback
# port with a temporary data folder, makes one kind of attack a player could make from a phone
# or a script, and asserts the server's answer (413, 429, 503, a refusal with a JSON error) and
# what the data folder, the ledger and the pages hold afterwards. Plain python3, no test
# framework: Tests/abuse/abuse_support.py starts the server and runs the test_* functions.
#
#   Tests/abuse/run.sh [GEOQR_BIN]     (default: a debug build made here)
set -euo pipefail
cd "$(dirname "$0")/../.."
GEOQR_BIN="${1:-${GEOQR_BIN:-}}"
if [[ -z $GEOQR_BIN ]]; then
    swift build --product geoqr >/dev/null 2>&1 || swift build --product geoqr   # quiet unless it fails
    GEOQR_BIN="$(swift build --show-bin-path)/geoqr"
fi
export GEOQR_BIN
status=0
for test in Tests/abuse/test_*.py; do
    python3 "$test" "$GEOQR_BIN" || status=1
done
exit $status
