#!/usr/bin/env bash
# End-to-end tests of the phone web app in headless Chromium (Debian's chromium and
# chromium-driver, from scripts/apt-packages-test.txt), driven by Selenium. Installs selenium from
# PyPI if missing, builds geoqr, then runs Tests/browser/test_web_app.py (the player's app),
# test_control_room.py (the game master's control room and the maps), test_offline.py (typed
# codes, and claims kept with no network: the service worker and the outbox), test_checkin.py
# (the phone check at the briefing), test_markup.py (hostile names, hunt files and tile
# credits shown as text on every page), test_courses.py (the phone's course card, the
# control room's split tables and the big screen), test_challenges.py (stations' questions,
# answered online and offline, and photo tasks judged in the control room) and test_privacy.py
# (the join screen's words on positions kept and players forgotten), each of which starts its
# own `geoqr serve` on a
# loopback port with a temporary data directory; test_markup_sinks.py reads the scripts for
# HTML sinks fed with anything but a literal.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "import selenium, axe_selenium_python, PIL" 2>/dev/null || python3 -m pip install -q -r Tests/requirements.txt
# GEOQR_BIN names a geoqr already built (scripts/test passes the AddressSanitizer one).
if [[ -z ${GEOQR_BIN:-} ]]; then
    swift build --product geoqr >/dev/null 2>&1 || swift build --product geoqr   # quiet unless it fails
    GEOQR_BIN="$(swift build --show-bin-path)/geoqr"
fi
status=0
# test_courses.py spends two minutes waiting for the clock (its score course's punches must be
# a minute old to count at their own time): it runs beside the others, its report kept for the end.
courses_log=$(mktemp)
python3 Tests/browser/test_courses.py "$GEOQR_BIN" >"$courses_log" 2>&1 &
courses=$!
python3 Tests/browser/test_web_app.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_control_room.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_offline.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_checkin.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_markup.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_privacy.py "$GEOQR_BIN" || status=1
python3 Tests/browser/test_challenges.py "$GEOQR_BIN" || status=1
wait "$courses" || status=1
echo "== Tests/browser/test_courses.py"
cat "$courses_log"
rm -f "$courses_log"
python3 Tests/browser/test_markup_sinks.py || status=1
exit $status
