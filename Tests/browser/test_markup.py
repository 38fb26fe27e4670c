"""Nothing a player, a hunt file or a tile server writes becomes markup (issue 24, section 4), in
real headless Chromium.

The hunt file's name, team names, trail name, cache names, messages and hints hold markup and
script; the MBTiles basemap's attribution does too; players join with such names and teams,
send positions, find caches, file reports with such text, and the game master broadcasts one.
Every page is read with the Content-Security-Policy switched off in the browser (DevTools'
Page.setBypassCSP), so injected script would run rather than be blocked: on the player's pages
(list, map with its tooltips and attribution, verdict, collection, trades, leaderboard, claim
page, also for a claim link whose code is markup), the control room (map tooltips of players, caches and the trail, feed, standings,
players, reports, station health, finds) and the check-in page, no element from the hostile
text exists (`#evil` and the other ids, links to e.vil, `onerror`/`onload` attributes, inline
scripts), `window.__pwned` is undefined, and the hostile text is shown as written.
Screenshots of the control room and the player's map go to $GEOQR_SCREENSHOTS (a temporary
folder unless set). Prints 'N passed, N failed' and exits non-zero on any failure.

GEOQR_WEB=DIR serves the pages from DIR (`geoqr serve --web DIR`) instead of the built-in ones,
to see this test fail on an older web app.
"""
import urllib.parse
import browser_support
from browser_support import *

PIN = "73915046"
# Every hostile string carries an id (or a link to e.vil, or an event handler) that the page
# must never grow: each fits a player name (32 characters).
ADA = "<a id=evil href=//e.vil>Log</a>"
BO = "<img src=x onerror=__pwned=1>"
CY = '"><svg id=evs onload=__pwned=1>'
DEE = "<script>__pwned=1</script>"
FOXES = "<b id=evilteam>Foxes</b>"
HUNT_NAME = "<img id=evilhunt src=x onerror=__pwned=1> Hunt"
TRAIL = "<a id=eviltrail href=//e.vil>Trail</a>"
NAMES = {"A1": "<i id=evila1>Steps</i><img src=x onerror=__pwned=1>",
         "B1": '"><svg id=evilb1 onload=__pwned=1>Door',
         "C1": "<script>__pwned=1</script>Canteen"}
MESSAGE = "<script>__pwned=1</script><a id=evilmsg href=//e.vil>Login</a> welcome"
HINT = '"><img id=evilhint src=x onerror=__pwned=1>under the step'
REPORT = "<img id=evilreport src=x onerror=__pwned=1><a href=//e.vil>Login</a> gone"
BROADCAST = "<a id=evilcast href=//e.vil>Prizes</a> at noon"
# The basemap's credit: its tags are dropped by the server, its `&lt;b&gt;` is read as the text `<b>`.
ATTRIBUTION = "<a id=evilattr href=//e.vil>Tiles</a> &copy; <img src=x onerror=__pwned=1>Test &lt;b id=evilb&gt;"
ATTRIBUTION_SHOWN = "Tiles © Test <b id=evilb>"
EVIL_IDS = ["evil", "evs", "evilteam", "evilhunt", "eviltrail", "evila1", "evilb1", "evilmsg", "evilhint", "evilreport",
            "evilcast", "evilattr", "evilb", "evilcode", "EVILCODE"]

browser_support.HUNT = {
    "id": "MARKUP", "name": HUNT_NAME, "radius": 40, "teams": [FOXES, "Owls"], "hintCost": 0,
    "trails": [{"id": "t", "name": TRAIL, "ordered": True, "caches": ["A1", "B1", "C1"]}],
    "caches": [
        {"id": "A1", "name": NAMES["A1"], "lat": A1[0], "lon": A1[1], "message": MESSAGE, "hint": HINT},
        {"id": "B1", "name": NAMES["B1"], "lat": B1[0], "lon": B1[1], "message": MESSAGE},
        {"id": "C1", "name": NAMES["C1"], "lat": C1[0], "lon": C1[1], "message": MESSAGE},
    ],
}

# What the page grew from hostile text, if anything: [] on a page that shows it as text.
GROWN = """
const bad = [];
if (window.__pwned !== undefined) bad.push("window.__pwned = " + window.__pwned);
for (const id of arguments[0]) if (document.getElementById(id)) bad.push("#" + id + ": " + document.getElementById(id).outerHTML.slice(0, 80));
for (const n of document.querySelectorAll('a[href*="e.vil"], [onerror], [onload], img[src="x"], script:not([src])'))
  bad.push(n.outerHTML.slice(0, 80));
return bad;
"""


def grown(driver, where):
    found = driver.execute_script(GROWN, EVIL_IDS)
    assert not found, f"{where}: markup from hostile text: " + "; ".join(found)


def page_text(driver, css):
    """The text content of everything `css` names (hidden parts included), as one string."""
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(n => n.textContent).join(' | ')", css)


def shows(driver, css, *texts):
    wait(driver, lambda d: all(t in page_text(d, css) for t in texts),
         what=f"{css} showing " + ", ".join(repr(t) for t in texts) + f" as text (it shows {page_text(driver, css)[:300]!r})")


def hostile_browser(session, where, size=(360, 800)):
    """A browser that would run injected script: the page's Content-Security-Policy is ignored."""
    driver = browser(session, where, size=size)
    driver.execute_cdp_cmd("Page.enable", {})
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    driver.get(session.base + "/")
    return driver


def hover_all(driver, css):
    """Points at each element `css` names (a mouseover, as the mouse makes it), so Leaflet opens
    its tooltip, and returns the text of the tooltips seen along the way."""
    seen = []
    for i in range(len(driver.find_elements(By.CSS_SELECTOR, css))):
        seen.append(driver.execute_script("""
            const target = document.querySelectorAll(arguments[0])[arguments[1]], box = target.getBoundingClientRect();
            const at = { bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
            target.dispatchEvent(new MouseEvent("mouseover", at));
            const shown = [...document.querySelectorAll(".leaflet-tooltip")].map(n => n.textContent).join(" | ");
            target.dispatchEvent(new MouseEvent("mouseout", at));
            return shown;""", css, i))
        grown(driver, f"tooltip of {css} #{i}")
    return " | ".join(seen)


def run():
    web = os.environ.get("GEOQR_WEB")

    def mbtiles(s):
        path = make_mbtiles(os.path.join(s.dir, "area.mbtiles"), [A1, B1, C1])
        db = sqlite3.connect(path)
        db.execute("UPDATE metadata SET value = ? WHERE name = 'attribution'", (ATTRIBUTION,))
        db.commit()
        db.close()
        return path
    session = Session(serve_args=["--mbtiles", mbtiles] + (["--web", web] if web else []))
    drivers = {}
    check = Checks()
    tokens = {}
    try:
        gm = drivers["gm"] = hostile_browser(session, C1, size=(1280, 1000))
        ada = drivers["ada"] = hostile_browser(session, north_of(A1, 10))
        bo = drivers["bo"] = hostile_browser(session, north_of(B1, 200))

        def players_join_with_markup_names():
            gm.get(session.admin_link())
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gm-map .cache-marker")) == 3, what="three caches on the map")
            join(ada, ADA, pin=PIN, team=FOXES)
            join(bo, BO, pin=PIN, team="Owls")
            for name, team, where in ((CY, FOXES, north_of(C1, 30)), (DEE, None, north_of(A1, 150))):
                body = {"name": name, "pin": PIN, **({"team": team} if team else {})}
                tokens[name] = api(session, "POST", "/api/join", body)["token"]
                api(session, "POST", "/api/me/position", {"latitude": where[0], "longitude": where[1], "accuracy": 8},
                    token=tokens[name])
            names = {p["name"] for p in api(session, "GET", "/api/players")["players"]}
            assert {ADA, BO, CY, DEE} <= names, f"the server keeps each name as written: {names}"
            for d in (ada, bo):
                wait(d, lambda d: "of 3 found" in text(d, "#progress"), what="the cache list")
        check("players join with markup in their names and teams, and send positions", players_join_with_markup_names)

        def player_list_shows_text():
            shows(ada, "#hunt-name", HUNT_NAME)
            shows(ada, "#cache-list", NAMES["A1"], NAMES["B1"], NAMES["C1"], HINT, TRAIL)
            assert ada.title.startswith(HUNT_NAME), ada.title
            shows(ada, "#me", ADA)
            grown(ada, "the player's list")
        check("the player's cache list shows names, hints and the trail as text", player_list_shows_text)

        def player_map_shows_text():
            tab(ada, "map")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#map .cache-marker")) == 3, what="caches on the player's map")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .me-marker"), what="the player's position")
            # A1 is next on the ordered trail: its tooltip stays open.
            shows(ada, "#map .leaflet-tooltip-pane", NAMES["A1"])
            shows(ada, "#map .leaflet-control-attribution", ATTRIBUTION_SHOWN)
            seen = hover_all(ada, "#map .cache-marker") + hover_all(ada, "#map .trail-line")
            for expected in (NAMES["B1"], NAMES["C1"], TRAIL):
                assert expected in seen, f"{expected!r} in a tooltip; tooltips read {seen[:400]!r}"
            grown(ada, "the player's map")
            ada.save_screenshot(os.path.join(SHOTS, "markup-phone-map.png"))
        check("the player's map shows cache and trail tooltips and the basemap's credit as text", player_map_shows_text)

        def verdict_and_collection():
            verdict = claim_by_link(ada, session, "A1")
            assert verdict.get_attribute("data-verdict") == "claimable", verdict.text
            shows(ada, "#claim-result", MESSAGE)
            grown(ada, "the claim page's verdict")
            assert claim_by_link(bo, session, "B1").get_attribute("data-verdict") == "too-far"
            grown(bo, "a too-far verdict")
            # A claim link whose code is markup (the claim page reads the code from its URL, upper-cased).
            ada.get(session.base + "/C/" + urllib.parse.quote("<img id=evilcode src=x onerror=__pwned=1>"))
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-verdict]") or text(d, ".error"), what="a verdict on a markup code")
            grown(ada, "the claim page of a markup code")
            ada.get(session.base + "/")
            wait_app(ada)
            tab(ada, "collection")
            shows(ada, "#card-list", NAMES["A1"], MESSAGE)
            grown(ada, "the collection")
        check("a verdict and the collection show the cache's message as text", verdict_and_collection)

        def reports_and_broadcast():
            bo.get(session.base + "/")
            wait_app(bo)
            api(session, "POST", "/api/reports", {"cache": "B1", "kind": "damaged", "text": REPORT}, token=tokens[CY])
            gm.find_element(By.ID, "broadcast-text").send_keys(BROADCAST)
            gm.find_element(By.CSS_SELECTOR, "#broadcast-form button").click()
            shows(ada, "#broadcast", BROADCAST)
            shows(bo, "#broadcast", BROADCAST)
            grown(ada, "a broadcast")
            grown(bo, "a broadcast")
        check("a report and a broadcast with markup are sent", reports_and_broadcast)

        def trades_and_leaderboard():
            tab(bo, "trades")
            wait(bo, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trade-to option")) == 4, what="the other players to trade with")
            shows(bo, "#trade-to", ADA, CY, DEE)
            ada_id = next(p["id"] for p in api(session, "GET", "/api/players")["players"] if p["name"] == ADA)
            Select(bo.find_element(By.ID, "trade-to")).select_by_value(ada_id)
            shows(bo, "#trade-receive", NAMES["A1"])
            grown(bo, "the trades")
            tab(bo, "board")
            shows(bo, "#board", ADA, BO, CY, DEE, FOXES)
            bo.find_element(By.ID, "board-teams").click()
            shows(bo, "#board", FOXES)
            grown(bo, "the leaderboard")
            # Ada's find reached Bo's phone as a toast: shown, and as text.
            grown(bo, "the news toasts")
        check("trades and the leaderboard show names and teams as text", trades_and_leaderboard)

        def control_room_shows_text():
            gm.get(session.admin_link())
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gm-map .player-marker")) == 4, seconds=20,
                 what="four players on the control room's map")
            shows(gm, "#gm-map .leaflet-tooltip-pane", ADA, BO, CY, DEE)
            shows(gm, "#hunt-name", HUNT_NAME)
            shows(gm, "#gm-map .leaflet-control-attribution", ATTRIBUTION_SHOWN)
            shows(gm, "#standings", ADA, BO, CY, DEE, FOXES)
            shows(gm, "#players", ADA, BO, CY, DEE, FOXES)
            shows(gm, "#reports", REPORT)
            shows(gm, "#stations", NAMES["A1"], NAMES["B1"], NAMES["C1"])
            shows(gm, "#finds", ADA)
            seen = hover_all(gm, "#gm-map .cache-marker") + hover_all(gm, "#gm-map .trail-line")
            for expected in (NAMES["A1"], NAMES["C1"], TRAIL):
                assert expected in seen, f"{expected!r} in a tooltip; tooltips read {seen[:400]!r}"
            grown(gm, "the control room")
        check("the control room shows names, teams, caches, the trail, reports and the credit as text", control_room_shows_text)

        def feed_shows_text():
            # The feed lists claims as they arrive on the open page's stream.
            move(bo, B1)
            assert claim_by_link(bo, session, "B1").get_attribute("data-verdict") == "claimable"
            shows(gm, "#feed", BO, NAMES["B1"])
            api(session, "POST", "/api/claims", {"code": session.codes["C1"], "method": "link", "latitude": C1[0],
                                                 "longitude": C1[1], "accuracy": 5}, token=tokens[CY])
            shows(gm, "#feed", CY, FOXES, NAMES["C1"])
            grown(gm, "the control room's feed")
            gm.execute_script("window.scrollTo(0, 0)")
            gm.save_screenshot(os.path.join(SHOTS, "markup-control-room.png"))
            gm.execute_script("document.getElementById('players').scrollIntoView()")
            gm.save_screenshot(os.path.join(SHOTS, "markup-control-room-players.png"))
        check("the control room's live feed shows names, teams and caches as text", feed_shows_text)

        def checkin_page():
            ada.get(session.base + "/checkin.html")
            wait(ada, lambda d: d.find_element(By.ID, "checkin-start").text, what="the check-in page")
            ada.find_element(By.ID, "checkin-start").click()
            wait(ada, lambda d: text(d, "#checkin-summary") and "Checking" not in text(d, "#checkin-summary"), seconds=40,
                 what="the check's summary")
            grown(ada, "the check-in page")
            wait(gm, lambda d: "Phones checked" in page_text(d, "#players"), what="Ada's check in the control room")
            grown(gm, "the control room after a phone check")
        check("the check-in page and the control room's phone checks grow nothing", checkin_page)

        def server_sends_the_credit_as_text():
            tiles = api(session, "GET", "/api/map")["tiles"]
            assert tiles["attribution"] == ATTRIBUTION_SHOWN, tiles["attribution"]
        check("GET /api/map sends the MBTiles attribution as plain text", server_sends_the_credit_as_text)
    finally:
        for d in drivers.values():
            d.quit()
        session.stop()
    print("screenshots:", SHOTS)
    code = check.summary()
    if not code:
        shutil.rmtree(session.dir, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(run())
