"""The game master's control room and the players' map, in real headless Chromium.

Starts `geoqr serve --mbtiles FILE` with an MBTiles basemap this test makes, opens the control
room from the admin link `geoqr serve` printed, and plays as the game master would meet a
Saturday: two players join in teams and walk (DevTools geolocation); their markers appear on
the control room's map with their age; a broadcast reaches a phone; a closed cache refuses a
claim and shows as closed; a void changes the leaderboard on every open page; the CSV export
lists the finds. For players: the map shows the caches, the trail, the next cache and the
player's own position on the MBTiles basemap; a paid hint; the tab bar keeps its highlight;
the list follows a player who stops inside the throttle; Portuguese when the browser prefers
it; axe-core finds no serious or critical violation; the join works from the keyboard.
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import csv
import json
from selenium.webdriver.common.keys import Keys
from browser_support import *


def run():
    session = Session(serve_args=["--mbtiles", lambda s: make_mbtiles(os.path.join(s.dir, "area.mbtiles"), [A1, B1, C1])])
    downloads = tempfile.mkdtemp(prefix="geoqr-downloads-")

    def download(gm, button, file):
        """Clicks the control room's download `button` and waits for `file` in the downloads
        folder; a download that never comes says where it stopped: the page's error line, whether
        the page handed a file to the browser, and what the folder holds."""
        gm.execute_script("""
            if (!window.handedOver) {
              window.handedOver = [];
              const click = HTMLAnchorElement.prototype.click;
              HTMLAnchorElement.prototype.click = function () {
                if (this.download) window.handedOver.push(this.download);
                return click.call(this);
              };
            }""")
        gm.find_element(By.ID, button).click()
        path = os.path.join(downloads, file)
        try:
            # Chromium writes a download to disk beside other suites' installs: a slow disk is not a failure.
            wait(gm, lambda d: os.path.exists(path) and os.path.getsize(path) > 0, seconds=45, what=f"{file} downloaded")
        except Exception:
            raise AssertionError(f"{file} not downloaded in 45 s: the page's error line {text(gm, '#admin-error')!r}, "
                                 f"files the page handed to the browser {gm.execute_script('return window.handedOver')}, "
                                 f"the downloads folder {sorted(os.listdir(downloads))}")
        return path

    def checks(check, drivers):
        gm = drivers["gm"] = browser(session, C1, size=(1280, 1000))
        ada = drivers["ada"] = browser(session, north_of(A1, 10))
        bo = drivers["bo"] = browser(session, north_of(B1, 200))

        def control_room_opens_from_the_printed_link():
            gm.get(session.admin_link())
            wait(gm, lambda d: re.search(r"\d+ players? ·", text(d, "#status")), what="the hunt's status")
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gm-map .cache-marker")) == 3, what="three caches on the map")
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#stations tr")) == 3, what="three stations")
            assert text(gm, "#admin-error") == "", text(gm, "#admin-error")
            assert "token" not in gm.current_url, "the token stays out of the address bar"
        check("the control room opens from the admin link geoqr serve printed", control_room_opens_from_the_printed_link)

        def players_join_in_teams_and_appear_on_the_map():
            join(ada, "Ada", team="Foxes")
            join(bo, "Bo", team="Owls")
            for who in (ada, bo):
                wait(who, lambda d: "of 3 found" in text(d, "#progress"), what="progress in the list")
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gm-map .player-marker")) == 2, seconds=20,
                 what="both players on the control room's map")
            labels = lambda d: d.execute_script("return document.querySelector('#gm-map .leaflet-tooltip-pane').textContent")
            wait(gm, lambda d: re.search(r"Ada · \d+ s ago · ±5 m", labels(d)) and "Bo · " in labels(d), what="their names, ages and accuracy")
            wait(gm, lambda d: "Foxes" in text(d, "#players [data-team=Foxes]") and "Ada" in text(d, "#players [data-team=Foxes]")
                 and "Bo" in text(d, "#players [data-team=Owls]"), what="players grouped by team")
            bo_id = next(p["id"] for p in api(session, "GET", "/api/players")["players"] if p["name"] == "Bo")
            # Bo walks 80 m south, towards B1: his marker's gap to B1's closes.
            gap = (f"const y = s => document.querySelector(s).getBoundingClientRect().y;"
                   f"return y('#gm-map .player-{bo_id}') - y('#gm-map .cache-B1');")
            before = gm.execute_script(gap)
            move(bo, north_of(B1, 120))
            wait(gm, lambda d: d.execute_script(gap) > before + 5, seconds=20, what="Bo's marker follows him")
        check("two players join in teams and their markers appear on the control room's map with their age",
              players_join_in_teams_and_appear_on_the_map)

        def broadcast_reaches_a_phone():
            gm.find_element(By.ID, "broadcast-text").send_keys("Lunch at the canteen at noon")
            gm.find_element(By.CSS_SELECTOR, "#broadcast-form button").click()
            wait(ada, lambda d: "Lunch at the canteen at noon" in text(d, "#broadcast"), what="the broadcast on Ada's phone")
        check("a broadcast reaches a phone", broadcast_reaches_a_phone)

        def feed_and_closed_cache():
            assert claim_by_link(bo, session, "B1").get_attribute("data-verdict") == "too-far"
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#feed li.refused[data-verdict=too-far]"), what="the refused claim in the feed")
            click(gm, "button[data-toggle=C1]")
            wait(gm, lambda d: "closed" in text(d, "#stations tr[data-station=C1]"), what="C1 shown closed in the stations")
            move(bo, C1)
            verdict = claim_by_link(bo, session, "C1")
            assert verdict.get_attribute("data-verdict") == "cache-disabled", verdict.text
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#feed li[data-verdict=cache-disabled]"), what="the closed-cache claim in the feed")
            wait(gm, lambda d: "closed" in d.find_element(By.CSS_SELECTOR, "#gm-map .cache-C1").get_attribute("class"),
                 what="C1 closed on the map")
            bo.get(session.base + "/")
            wait_app(bo)
            wait(bo, lambda d: "closed" in text(d, "#cache-list li[data-cache=C1]"), what="C1 closed in Bo's list")
            click(gm, "button[data-toggle=C1]")
            # The row still counts Bo's refused scan as "cache closed 1"; its health and button say open.
            wait(gm, lambda d: text(d, "#stations tr[data-station=C1] button[data-toggle=C1]").startswith("Close")
                 and "closed" not in text(d, "#stations tr[data-station=C1] td:nth-of-type(5)"), what="C1 open again")
        check("claims show in the feed as they happen; a closed cache refuses a claim and shows as closed", feed_and_closed_cache)

        def map_shows_caches_trail_and_me():
            tab(ada, "map")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#map .cache-marker")) == 3, what="caches on Ada's map")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .me-marker") and d.find_elements(By.CSS_SELECTOR, "#map .me-accuracy"),
                 what="Ada's position and its accuracy circle")
            assert ada.find_elements(By.CSS_SELECTOR, "#map .trail-line"), "the ordered trail is drawn"
            assert ada.find_elements(By.CSS_SELECTOR, "#map .cache-marker.next.cache-A1"), "A1 is marked next on the trail"
            assert ada.find_elements(By.CSS_SELECTOR, "#map .leaflet-control-scale"), "a scale bar"
            wait(ada, lambda d: d.execute_script("""return [...document.querySelectorAll('#map img.leaflet-tile')]
                .filter(i => i.src.includes('/tiles/') && i.complete && i.naturalWidth === 256).length"""), what="MBTiles tiles drawn")
            assert "Test tiles © GeoQR tests" in text(ada, "#map .leaflet-control-attribution"), "the basemap's attribution"
            assert ada.find_element(By.CSS_SELECTOR, "nav button[data-tab=map]").get_attribute("aria-current") == "page"
            assert ada.find_element(By.CSS_SELECTOR, "nav button[data-tab=caches]").get_attribute("aria-current") is None
            ada.save_screenshot(os.path.join(SHOTS, "phone-map.png"))
        check("the player's map shows caches, the ordered trail, the next cache, their position and MBTiles tiles",
              map_shows_caches_trail_and_me)

        def a_find_marks_the_map_and_moves_next():
            # The server restarts while the control room's laptop has no network (DevTools'
            # offline emulation keeps an open stream but refuses new connections): once it is
            # back, its stream resumes from the last event it heard (Last-Event-ID) and the feed
            # shows the find made in between, once.
            def network(cut):
                gm.execute_cdp_cmd("Network.enable", {})
                gm.execute_cdp_cmd("Network.emulateNetworkConditions",
                                   {"offline": cut, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
            network(True)
            session.restart()
            wait(gm, lambda d: "offline" in d.find_element(By.ID, "status").get_attribute("class"), what="the control room's stream dropped")
            verdict = claim_by_link(ada, session, "A1")
            assert verdict.get_attribute("data-verdict") == "claimable", verdict.text
            assert not gm.find_elements(By.CSS_SELECTOR, "#feed li[data-verdict=claimable]"), "no find in the feed while offline"
            network(False)
            wait(gm, lambda d: "Ada" in text(d, "#feed li[data-verdict=claimable]"), seconds=20,
                 what="the find made while the control room was offline, in its feed")
            wait(gm, lambda d: "offline" not in d.find_element(By.ID, "status").get_attribute("class"), what="the stream back")
            assert len(gm.find_elements(By.CSS_SELECTOR, "#feed li[data-verdict=claimable]")) == 1, "the find once, not twice"
            wait(gm, lambda d: text(d, "#stations tr[data-station=A1] td:nth-of-type(1)") == "1", what="A1's find in the station health")
            gm.save_screenshot(os.path.join(SHOTS, "control-room-after-drop.png"))
            ada.save_screenshot(os.path.join(SHOTS, "phone-verdict.png"))
            ada.get(session.base + "/")
            wait_app(ada)
            wait(ada, lambda d: "1 of 3 found" in text(d, "#progress"), what="progress after a find")
            ada.save_screenshot(os.path.join(SHOTS, "phone-list.png"))
            tab(ada, "map")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .cache-marker.found.cache-A1")
                 and d.find_elements(By.CSS_SELECTOR, "#map .cache-marker.next.cache-B1"), what="A1 found, B1 next")
        check("a find shows on the map and the trail's next cache moves on; the control room's feed catches up after a drop",
              a_find_marks_the_map_and_moves_next)

        def paid_hint():
            tab(ada, "caches")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-hint=B1]"), what="a paid hint offered")
            assert not ada.find_elements(By.CSS_SELECTOR, "button[data-hint=A1]"), "no price for the hint of a cache already found"
            before = api(session, "GET", "/api/leaderboard")["standings"]
            points = next(s["points"] for s in before if s["name"] == "Ada")
            ada.execute_script("window.confirm = () => true;")
            click(ada, "button[data-hint=B1]")
            wait(ada, lambda d: "behind the returns box" in text(d, "#cache-list li[data-cache=B1]"), what="the hint revealed")
            after = next(s["points"] for s in api(session, "GET", "/api/leaderboard")["standings"] if s["name"] == "Ada")
            assert after == points - 3, (points, after)
            # The team's total is the server's sum (TeamGroup), shown as it says.
            wait(gm, lambda d: f"Foxes · {after} pts" in text(d, "#players [data-team=Foxes] h3"),
                 what="Foxes' total after the hint")
        check("a paid hint is revealed on request and taken off the score", paid_hint)

        def report_with_photo_is_resolved():
            tab(ada, "caches")
            click(ada, "#cache-list li[data-cache=C1] button[aria-label]")
            Select(ada.find_element(By.ID, "report-kind")).select_by_value("damaged")
            ada.find_element(By.ID, "report-text").send_keys("The card is soaked")
            ada.find_element(By.ID, "report-photo").send_keys(os.path.join(session.dir, "C1.png"))
            ada.find_element(By.CSS_SELECTOR, "#report-form button[type=submit]").click()
            wait(ada, lambda d: not d.find_element(By.ID, "report-form").is_displayed(), what="the report sent")
            wait(gm, lambda d: d.execute_script("""const i = document.querySelector('#reports li[data-report] img.report-photo');
                return !!i && i.complete && i.naturalWidth > 0"""), what="the report's photo in the control room")
            assert "The card is soaked" in text(gm, "#reports") and "Damaged" in text(gm, "#reports"), text(gm, "#reports")
            wait(gm, lambda d: "1" in text(d, "#stations tr[data-station=C1] td:nth-of-type(3)"), what="an open report on C1's station")
            gm.execute_script("window.prompt = () => 'new card hidden';")
            click(gm, "#reports li[data-report] button")
            wait(gm, lambda d: not d.find_elements(By.CSS_SELECTOR, "#reports li[data-report]"), what="the report resolved")
        check("a report's photo reaches the control room, which resolves it", report_with_photo_is_resolved)

        def void_changes_every_board():
            tab(ada, "board")
            tab(bo, "board")
            wait(ada, lambda d: "Ada" in text(d, "#board tr:first-child"), what="Ada first on her board")
            gm.execute_script("window.prompt = () => 'code photographed from the bus';")
            click(gm, "#finds li[data-find] button")
            for d, who in ((ada, "Ada"), (bo, "Bo")):
                wait(d, lambda d: "Ada" in text(d, "#board") and re.search(r"Ada \(Foxes\)\s+-3\b", text(d, "#board")),
                     what=f"{who}'s board after the void")
            wait(gm, lambda d: re.search(r"Ada \(Foxes\)\s+-3\b", text(d, "#standings")), what="the control room's standings after the void")
            # The control room numbers its standings with the server's ranks, as the phones do.
            wait(gm, lambda d: [row.find_element(By.TAG_NAME, "td").text for row in d.find_elements(By.CSS_SELECTOR, "#standings tr")]
                 == [str(s["rank"]) for s in api(session, "GET", "/api/leaderboard")["standings"]], what="the control room's ranks, the server's")
            # Her own stream tells her team's place too, under the board.
            wait(ada, lambda d: re.fullmatch(r"Team Foxes: [12] of 2, -3 points", text(d, "#board-team")), what="Ada's team line after the void")
            ada.find_element(By.ID, "board-teams").click()
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#board tr[data-team=Foxes]"), what="the team view")
            # Each team's line has its rank from the server, as the big screen shows it.
            teams = api(session, "GET", "/api/leaderboard", token=ada.execute_script("return localStorage.getItem('geoqr.token')"))["teams"]
            wait(ada, lambda d: [[c.text for c in row.find_elements(By.TAG_NAME, "td")][0::2] for row in d.find_elements(By.CSS_SELECTOR, "#board tr[data-team]")]
                 == [[str(s["rank"]), str(s["points"])] for s in teams], what="the team view's ranks and points, the server's")
        check("a void changes the leaderboard on every open page; the board has a team view", void_changes_every_board)

        def csv_export_lists_the_finds():
            move(bo, B1)
            assert claim_by_link(bo, session, "B1").get_attribute("data-verdict") == "claimable"
            gm.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
            path = download(gm, "export-finds", "finds.csv")
            rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
            assert len(rows) == 2, rows
            assert any("A1" in " ".join(r.values()) for r in rows) and any("B1" in " ".join(r.values()) for r in rows), rows
            gm.execute_script("window.scrollTo(0, 0)")
            gm.save_screenshot(os.path.join(SHOTS, "control-room.png"))
        check("the CSV export lists the finds", csv_export_lists_the_finds)

        def ledger_downloads_public_and_private():
            # The published ledger keeps where nobody stood; the private one has each claim's place.
            ledgers = {}
            for button, file in (("export", "ledger.jsonl"), ("export-private", "ledger-private.jsonl")):
                path = download(gm, button, file)
                ledgers[button] = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
            public, private = ledgers["export"], ledgers["export-private"]
            assert len(public) == len(private) and len(public) > 5, (len(public), len(private))
            def stood(events):   # claims whose body holds the player's own position
                bodies = [json.loads(e["body"]) for e in events if e.get("kind") in ("claim-attempted", "find-recorded")]
                return [b for b in bodies if isinstance(b.get("private"), dict) and "location" in b["private"]]
            assert stood(private), "the private ledger has where each claimer stood"
            assert not stood(public), "the published ledger has no position"
            assert "private" in gm.find_element(By.ID, "export-private").text.lower()
        check("the control room downloads the published ledger and, apart, the private one", ledger_downloads_public_and_private)

        def tab_bar_and_deferred_position():
            bo.get(session.base + "/")
            wait_app(bo)
            tab(bo, "collection")
            tab(bo, "caches")
            assert bo.find_element(By.CSS_SELECTOR, "nav button[data-tab=caches]").get_attribute("aria-current") == "page"
            assert [b.get_attribute("data-tab") for b in bo.find_elements(By.CSS_SELECTOR, "nav button[aria-current=page]")] == ["caches"]
            wait(bo, lambda d: re.search(r"^\d+ m", text(d, "#cache-list li[data-cache=B1] .distance")), what="B1's distance")
            move(bo, north_of(B1, 60))   # two updates inside the 4 s throttle: the last is sent when it ends
            time.sleep(1)
            move(bo, north_of(B1, 25))
            wait(bo, lambda d: re.search(r"^2[0-9] m", text(d, "#cache-list li[data-cache=B1] .distance")), seconds=12,
                 what="the list catches up with where Bo stopped")
        check("the tab bar keeps the current tab; the list follows a player who stops", tab_bar_and_deferred_position)

        def portuguese_when_the_browser_prefers_it():
            cy = drivers["cy"] = browser(session, north_of(A1, 300), lang="pt-PT")
            wait(cy, lambda d: text(d, "#join-title") == "Entrar na caça", what="the join screen in Portuguese")
            assert cy.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt"
            join(cy, "Cy")
            wait(cy, lambda d: "de 3 encontradas" in text(d, "#progress"), what="progress in Portuguese")
            verdict = claim_by_link(cy, session, "A1")
            assert verdict.get_attribute("data-verdict") == "too-far", verdict.text
            assert "Caminhe" in text(cy, ".walk"), text(cy, ".walk")
            sentence = text(cy, ".verdict .sentence")
            assert sentence and not re.search(r"\b(walk on|away|is)\b", sentence), "the server's sentence is Portuguese: " + sentence
            cy.get(session.base + "/")
            wait_app(cy)
            Select(cy.find_element(By.ID, "lang")).select_by_value("en")
            wait(cy, lambda d: text(d, "nav button[data-tab=map]") == "Map", what="the switch back to English")
        check("Portuguese when the browser prefers it, and the switch", portuguese_when_the_browser_prefers_it)

        def accessible_and_keyboard():
            problems = []
            for d, where in ((ada, "caches"), (ada, "map"), (ada, "board"), (ada, "scan"), (ada, "trades"), (ada, "collection"), (gm, None)):
                if where:
                    tab(d, where)
                    time.sleep(0.5)
                problems += [f"{where or 'control room'}: {p}" for p in serious_violations(d)]
            claim_by_link(ada, session, "C1")
            problems += [f"claim page: {p}" for p in serious_violations(ada)]
            dee = drivers["dee"] = browser(session, C1)
            wait(dee, lambda d: d.find_element(By.ID, "join-button").text, what="join form")
            problems += [f"join: {p}" for p in serious_violations(dee)]
            assert not problems, "\n".join(problems)
            # Joining from the keyboard alone: Tab from the top of the page to the name field.
            body = dee.find_element(By.TAG_NAME, "body")
            for _ in range(10):
                if dee.switch_to.active_element.get_attribute("id") == "name":
                    break
                body.send_keys(Keys.TAB) if dee.switch_to.active_element.tag_name == "body" else dee.switch_to.active_element.send_keys(Keys.TAB)
            active = dee.switch_to.active_element
            assert active.get_attribute("id") == "name", active.get_attribute("outerHTML")[:80]
            active.send_keys("Dee", Keys.TAB, "4321", Keys.ENTER)
            wait_app(dee)
            map_tab = dee.find_element(By.CSS_SELECTOR, "nav button[data-tab=map]")
            map_tab.send_keys(Keys.ENTER)
            wait(dee, lambda d: d.find_element(By.ID, "tab-map").is_displayed(), what="the map tab from the keyboard")
        check("axe-core finds no serious or critical violation; joining and the tabs work from the keyboard", accessible_and_keyboard)

        def icons_and_manifest():
            for path, kind in (("/favicon.ico", "image/"), ("/manifest.webmanifest", "application/manifest+json"),
                               ("/icons/icon-192.png", "image/png")):
                with urllib.request.urlopen(session.base + path) as response:
                    assert response.status == 200 and response.headers["Content-Type"].startswith(kind), (path, response.headers["Content-Type"])
        check("favicon, app icon and web app manifest are served", icons_and_manifest)

    code = run_checks(session, checks)
    shutil.rmtree(downloads, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(run())
