"""Nothing a player, a hunt file or a tile server writes becomes markup (issue 24 §4), seen from
the server's side: the pages geoqr serves are its own files, never filled with a player's text;
every answer that carries such text is JSON under `nosniff` and a CSP that runs the server's
scripts only; an MBTiles file's HTML credit reaches the app as bounded plain text. How the pages
show that text (as text, on every page) is Tests/browser/test_markup.py, in Chromium.

    python3 Tests/abuse/test_markup.py GEOQR_BIN
"""
import os, sqlite3, sys, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse_support import A1, HUNT, Server, run

LINK_NAME = "<a href=//e.vil>Login</a>"
PAGES = ["/", "/index.html", "/admin.html", "/checkin.html", "/claim.html", "/app.js", "/admin.js", "/map.js"]


def json_under_nosniff(answer, what):
    assert answer.headers.get("content-type", "").startswith("application/json"), f"{what}: {answer.headers.get('content-type')}"
    assert answer.headers.get("x-content-type-options") == "nosniff", f"{what}: no nosniff"


def test_a_player_named_as_a_link_sends_a_position():
    """The table's row: a player named `<a href=//e.vil>Login</a>` sends a position."""
    with Server() as server:
        evil = server.join(LINK_NAME)
        answer = server.call("POST", "/api/me/position", {"latitude": A1[0], "longitude": A1[1], "accuracy": 5}, token=evil.token)
        assert answer.status == 200, answer
        overview = server.admin("GET", "overview")
        assert overview.status == 200, overview
        json_under_nosniff(overview, "the control room's overview")
        assert LINK_NAME in [p["name"] for p in overview.json["players"]], "the name is kept as written, as data"
        assert evil.id in [p["player"] for p in overview.json["positions"]], "the position reached the control room"
        for path in PAGES:
            page = server.call("GET", path)
            assert page.status == 200, (path, page)
            assert b"e.vil" not in page.raw and b"Login</a>" not in page.raw, f"{path} holds the player's text"
            policy = page.headers.get("content-security-policy", "")
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, f"{path}: CSP {policy!r}"
            assert page.headers.get("x-content-type-options") == "nosniff", path
        players = server.call("GET", "/api/players", token=evil.token)
        json_under_nosniff(players, "the player list")


def test_markup_in_a_hunt_file_stays_data():
    """A hunt file whose names, message and trail hold markup: served as JSON, never in a page."""
    hunt = dict(HUNT, name="<script>alert(1)</script>Hunt", teams=["<b>Foxes</b>", "Owls"],
                trails=[{"id": "t", "name": "<img src=x onerror=alert(1)>", "caches": ["A1", "B1", "C1"]}])
    hunt["caches"] = [dict(c, name=f"<i>{c['name']}</i>", message="<svg onload=alert(1)>") for c in HUNT["caches"]]
    with Server(hunt=hunt) as server:
        answer = server.call("GET", "/api/hunt")
        json_under_nosniff(answer, "the hunt")
        assert answer.json["name"] == hunt["name"] and answer.json["trails"][0]["name"] == "<img src=x onerror=alert(1)>", answer
        for path in PAGES:
            page = server.call("GET", path)
            assert b"alert(1)" not in page.raw and b"<i>Rectorate" not in page.raw, f"{path} holds the hunt file's text"


def test_an_mbtiles_credit_with_script_is_sent_as_bounded_plain_text():
    """An MBTiles file's `attribution` is HTML by custom, and a file from anywhere may hold
    script and a megabyte of it: /api/map sends plain text of at most 300 characters."""
    with Server() as server:
        path = os.path.join(server.dir, "area.mbtiles")
        db = sqlite3.connect(path)
        db.executescript("""CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);""")
        credit = ('<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap</a> contributors '
                  '<img src=x onerror=alert(1)><script>alert(2)</script>&lt;b&gt;' + "<b>x</b>" * 200_000)
        db.executemany("INSERT INTO metadata VALUES (?, ?)", [("format", "png"), ("attribution", credit)])
        db.execute("INSERT INTO tiles VALUES (0, 0, 0, ?)", (b"\x89PNG\r\n\x1a\n",))
        db.commit()
        db.close()
        server.args += ["--mbtiles", path]
        server.stop()
        server.start()
        answer = server.call("GET", "/api/map")
        json_under_nosniff(answer, "the map's configuration")
        shown = answer.json["tiles"]["attribution"]
        assert shown.startswith("© OpenStreetMap contributors alert(2) <b> x x x"), shown[:120]
        assert "<a" not in shown and "<img" not in shown and "<script" not in shown and "<b>x" not in shown, shown[:200]
        assert len(shown) <= 300, len(shown)


def test_markup_in_a_url_is_not_reflected_as_html():
    """One more of our own: markup in a path (a claim link, an API id, a tile) comes back as
    JSON or as the page's own file, never echoed into HTML."""
    with Server() as server:
        evil = urllib.parse.quote("<svg onload=alert(1)>")
        for path in (f"/{evil}", f"/api/{evil}", f"/api/players/{evil}/items", f"/tiles/{evil}/0/0", f"/api/caches/{evil}/hint"):
            answer = server.call("GET", path)
            assert answer.status >= 400, (path, answer)
            json_under_nosniff(answer, path)
        claim_page = server.call("GET", f"/C/{evil}")
        assert claim_page.status == 200 and b"svg onload" not in claim_page.raw and b"%3Csvg" not in claim_page.raw, claim_page


run(globals())
