"""End-to-end tests of the GeoQR web app in real headless Chromium.

Starts `geoqr serve` on a free loopback port with a temporary data directory and a three-cache
hunt, makes a Y4M clip of cache B1's code for Chromium's fake camera, and sets each browser's
location through DevTools (Emulation.setGeolocationOverride). Shows:
  1. a player joins, sees the caches sorted by distance, claims A1 by its link from inside the
     radius and gets the message; a third browser's leaderboard updates live (SSE);
  2. a second player 300 m away is told the distance and the direction to walk;
  3. the first player scans B1 with the (fake) rear camera and gets B1's message;
  4. the two players complete a trade in their browsers.
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
from browser_support import *


def run():
    session = Session()
    drivers = {}
    results = []

    def check(name, body):
        try:
            body()
            results.append((name, None))
            print(f"ok   {name}")
        except Exception as error:
            results.append((name, error))
            print(f"FAIL {name}: {error}")
            traceback.print_exc()

    try:
        ada = drivers["ada"] = browser(session, north_of(A1, 10), camera=True)
        bo = drivers["bo"] = browser(session, north_of(A1, 300))
        cy = drivers["cy"] = browser(session, C1)

        def watcher_sees_board():
            join(cy, "Cy")
            tab(cy, "board")
            wait(cy, lambda d: "Cy" in text(d, "#board"), what="Cy's leaderboard")
        check("a third player watches the leaderboard", watcher_sees_board)

        def join_and_sorted():
            join(ada, "Ada")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cache-list li .distance")) == 3
                 and "m " in text(d, "#cache-list li .distance"), what="caches with distances")
            order = [li.get_attribute("data-cache") for li in ada.find_elements(By.CSS_SELECTOR, "#cache-list li")]
            assert order == ["A1", "C1", "B1"], order
            ada.refresh()   # the session survives a reload
            wait(ada, lambda d: d.find_element(By.ID, "app").is_displayed(), what="still signed in after reload")
        check("join, caches sorted by distance, session survives reload", join_and_sorted)

        def claim_in_radius():
            verdict = claim_by_link(ada, session, "A1")
            assert verdict.get_attribute("data-verdict") == "claimable", verdict.text
            assert text(ada, "#revealed") == "Welcome to A1, explorer", text(ada, "#revealed")
            assert "first to find" in text(ada, "body"), "the answer's firstToFind is shown"
            ada.save_screenshot(os.path.join(SHOTS, "claim-found.png"))
        check("claim by link inside the radius reveals the message", claim_in_radius)

        def board_updates_live():
            wait(cy, lambda d: re.search(r"Ada\s+10\b|Ada\s+\d+", text(d, "#board")) and
                 d.find_element(By.CSS_SELECTOR, "#board tr").text.startswith("1 Ada"), what="Ada on top of Cy's board")
        check("leaderboard updates live in another browser (SSE)", board_updates_live)

        def crowd_beyond_the_top_ten():
            # Twelve more players, each given points by the game master, push Cy below the top
            # ten: his stream carries the top and his own place, never the whole board.
            admin = session.admin_link().split("#token=")[1]
            for n in range(12):
                joined = api(session, "POST", "/api/join", {"name": f"Runner {n:02}", "pin": "4321"})
                api(session, "POST", f"/api/admin/players/{joined['player']['id']}/points",
                    {"amount": 50 + n, "reason": "crowd"}, token=admin)
            wait(cy, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board tr")) == 12
                 and d.find_element(By.CSS_SELECTOR, "#board tr").text.startswith("1 Runner 11 61"), what="the top ten, a gap and Cy")
            rows = [r.text for r in cy.find_elements(By.CSS_SELECTOR, "#board tr")]
            assert rows[10] == "…" and rows[11].startswith("14 Cy 0"), rows
            assert "me" in cy.find_elements(By.CSS_SELECTOR, "#board tr")[11].get_attribute("class"), "Cy's line is marked"
            assert text(cy, "#board-all") == "Show all 14 players", text(cy, "#board-all")
            cy.execute_script("document.querySelector('#board-all').scrollIntoView({block: 'end'})")
            cy.save_screenshot(os.path.join(SHOTS, "board-top-and-rank.png"))
            # A toast (news of someone's find) lies over the button at the foot of the screen;
            # the tap must still reach the button (CI: "Other element would receive the click").
            cy.execute_async_script("import('/dom.js').then(m => { m.toast('Someone found A2'); arguments[arguments.length - 1](); })")
            wait(cy, lambda d: d.find_elements(By.CSS_SELECTOR, "#toasts .toast"), what="a toast over the button")
            over = cy.execute_script("""const b = document.querySelector('#board-all').getBoundingClientRect();
                const t = document.querySelector('#toasts .toast:last-child').getBoundingClientRect();
                return t.top < b.bottom && t.bottom > b.top;""")
            assert over, "the toast should lie over the button for this check"
            click(cy, "#board-all")
            wait(cy, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board tr")) == 14, what="the whole board on request")
            assert text(cy, "#board-all") == "Show the top ten"
            # Live: Cy's own line moves when the game master gives him points.
            click(cy, "#board-all")
            cy_id = cy.execute_script("return JSON.parse(localStorage.getItem('geoqr.player')).id")
            api(session, "POST", f"/api/admin/players/{cy_id}/points",
                {"amount": 100, "reason": "crowd"}, token=admin)
            wait(cy, lambda d: d.find_element(By.CSS_SELECTOR, "#board tr").text.startswith("1 Cy 100")
                 and len(d.find_elements(By.CSS_SELECTOR, "#board tr")) == 10, what="Cy's rank moving live to the top")
            assert "100" in text(cy, "#me"), text(cy, "#me")
            # Runner 11 draws level with Cy (100 points, no finds): both are first, on Cy's
            # phone as on the big screen and in the results, and the next is third.
            api(session, "POST", f"/api/admin/players/{joined['player']['id']}/points",
                {"amount": 39, "reason": "crowd"}, token=admin)
            wait(cy, lambda d: [r.text.split(" ")[0] for r in d.find_elements(By.CSS_SELECTOR, "#board tr")][:3] == ["1", "1", "3"],
                 what="Cy and Runner 11 sharing first place, Runner 10 third")
            rows = [r.text for r in cy.find_elements(By.CSS_SELECTOR, "#board tr")]
            assert {rows[0], rows[1]} == {"1 Cy 100 0", "1 Runner 11 100 0"} and rows[2].startswith("3 Runner 10 60"), rows
        check("past ten players the phone shows the top ten and its own place, the whole board on request", crowd_beyond_the_top_ten)

        def others_finds_in_few_toasts():
            # Three players find A1 at once: Cy's phone hears them in digests (the first at
            # once, the rest together), one toast each, which name a finder and count them all.
            cy.execute_script("document.getElementById('toasts').replaceChildren()")
            # Every toast shown from now on, kept (a toast goes after 6 s, and a slow run may
            # take longer than that to hear the three finds).
            cy.execute_script("""window.toastsSeen = [];
                new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes) window.toastsSeen.push(n.textContent); })
                  .observe(document.getElementById('toasts'), { childList: true });""")
            finders = [api(session, "POST", "/api/join", {"name": f"Finder {n}", "pin": "4321"}) for n in range(3)]
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(3) as pool:
                answers = list(pool.map(lambda f: api(session, "POST", "/api/claims", {
                    "code": session.code("A1"), "latitude": A1[0], "longitude": A1[1], "accuracy": 5}, token=f["token"]), finders))
            assert all(a["verdict"] == "claimable" for a in answers), answers

            def counted(d):
                total = 0
                for line in d.execute_script("return window.toastsSeen"):
                    many = re.fullmatch(r"Finder \d found Rectorate steps! (\d+) finds just now\.", line)
                    one = re.fullmatch(r"Finder \d found Rectorate steps!", line)
                    assert many or one, f"a toast that is not news of the finds: {line!r}"
                    total += int(many.group(1)) if many else 1
                return total
            deadline = time.monotonic() + 15
            while counted(cy) < 3 and time.monotonic() < deadline:
                time.sleep(0.2)
            cy.save_screenshot(os.path.join(SHOTS, "finds-toast.png"))
            time.sleep(1)   # nothing more should come
            seen = cy.execute_script("return window.toastsSeen")
            assert counted(cy) == 3 and len(seen) <= 3, f"the toasts count {counted(cy)} finds of 3: {seen}"
        check("others' finds reach the phone in a toast per digest, counted", others_finds_in_few_toasts)

        def too_far():
            join(bo, "Bo")
            verdict = claim_by_link(bo, session, "A1")
            assert verdict.get_attribute("data-verdict") == "too-far", verdict.text
            walk = text(bo, ".walk")
            metres = int(re.search(r"Walk (\d+) m", walk).group(1))
            assert 290 <= metres <= 310 and "south" in walk, walk
            assert not bo.find_elements(By.ID, "revealed")
            bo.save_screenshot(os.path.join(SHOTS, "claim-too-far.png"))
        check("a player 300 m away is told the distance and the direction", too_far)

        def camera_scan():
            move(ada, B1)
            ada.get(session.base + "/")
            wait(ada, lambda d: d.find_element(By.ID, "app").is_displayed(), what="app")
            tab(ada, "scan")
            ada.find_element(By.ID, "camera-start").click()
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict]"), seconds=30, what="a camera verdict")
            verdict = ada.find_element(By.CSS_SELECTOR, "#scan-result [data-verdict]")
            assert verdict.get_attribute("data-verdict") == "claimable", verdict.text
            assert text(ada, "#revealed") == "B1: books open doors"
        check("scan with the (fake) rear camera claims B1", camera_scan)

        def trade():
            move(bo, C1)
            assert claim_by_link(bo, session, "C1").get_attribute("data-verdict") == "claimable"
            ada.get(session.base + "/")
            wait(ada, lambda d: d.find_element(By.ID, "app").is_displayed(), what="app")
            tab(ada, "trades")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trade-to option")) >= 3, what="players to trade with")
            bo_id = [o.get_attribute("value") for o in ada.find_elements(By.CSS_SELECTOR, "#trade-to option") if o.text == "Bo"][0]
            Select(ada.find_element(By.ID, "trade-to")).select_by_value(bo_id)
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=receive]"), what="Bo's items")
            give = [i for i in ada.find_elements(By.CSS_SELECTOR, "input[name=give]") if "Library door" in i.find_element(By.XPATH, "..").text]
            give[0].click()
            ada.find_elements(By.CSS_SELECTOR, "input[name=receive]")[0].click()
            ada.find_element(By.ID, "trade-send").click()
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#trades-out li[data-state=open]"), what="the offer listed")
            bo.get(session.base + "/")
            wait(bo, lambda d: d.find_element(By.ID, "app").is_displayed(), what="Bo's app")
            tab(bo, "trades")
            wait(bo, lambda d: d.find_elements(By.CSS_SELECTOR, "#trades-in li[data-state=open] button"), what="the offer arrives")
            bo.find_element(By.CSS_SELECTOR, "#trades-in li[data-state=open] button").click()
            wait(bo, lambda d: d.find_elements(By.CSS_SELECTOR, "#trades-in li[data-state=accepted]"), what="accepted")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#trades-out li[data-state=accepted]"), what="Ada hears it (SSE)")
            tab(ada, "collection")
            wait(ada, lambda d: "C1: lunch is served" in text(d, "#card-list"), what="C1's card in Ada's collection")
            tab(bo, "collection")
            wait(bo, lambda d: "B1: books open doors" in text(d, "#card-list"), what="B1's card in Bo's collection")
        check("two players complete a trade", trade)

        def game_master_resets_a_pin():
            # The admin link exactly as `geoqr serve` printed it.
            link = session.admin_link()
            gm = drivers["gm"] = browser(session, C1)
            gm.set_window_size(1280, 900)
            gm.get(link)
            wait(gm, lambda d: "Bo" in text(d, "#players") and "Ada" in text(d, "#standings"), what="players and standings")
            assert text(gm, "#admin-error") == "", text(gm, "#admin-error")
            gm.execute_script("window.prompt = () => '8642';")
            def press_reset(d):   # the list may be redrawn by a live update between finding and clicking
                row = [li for li in d.find_elements(By.CSS_SELECTOR, "#players li[data-player]") if li.text.startswith("Bo ")][0]
                row.find_element(By.CSS_SELECTOR, "button[data-reset]").click()
                return True
            wait(gm, press_reset, what="Bo's PIN reset pressed")
            def signs_in(pin):
                body = json.dumps({"name": "Bo", "pin": pin}).encode()
                request = urllib.request.Request(session.base + "/api/signin", data=body, headers={"Content-Type": "application/json"})
                try:
                    return urllib.request.urlopen(request).status == 200
                except urllib.error.HTTPError:
                    return False
            wait(gm, lambda d: "Bo has a new PIN" in text(d, "#admin-note"), what="the page confirms the reset")
            wait(gm, lambda d: signs_in("8642"), what="Bo signs in with the new PIN")
            assert not signs_in("4321"), "the old PIN still works"
            gm.save_screenshot(os.path.join(SHOTS, "admin.png"))
            exported = gm.execute_async_script("""
                const done = arguments[0];
                fetch('/api/admin/ledger', { headers: { Authorization: 'Bearer ' + sessionStorage.getItem('geoqr.admin') } })
                  .then(r => r.text()).then(done);""")
            assert "player-joined" in exported and "pinHash" not in exported and "$2b$" not in exported, "the export holds PIN hashes"
        check("the game master opens the printed admin link and resets a PIN", game_master_resets_a_pin)

        def first_load_within_budget():
            # What a phone fetches before it can join, modules its scripts import included.
            weight = subprocess.run([sys.executable, "Benchmarks/page-weight.py", session.base, "--json"],
                                    capture_output=True, text=True, timeout=60)
            figures = json.loads(weight.stdout)
            assert weight.returncode == 0, f"first load {figures['staticBytes']:,} bytes, budget {figures['budgetBytes']:,}"
            assert "/app/tab-caches.js" in figures["files"], "the imported modules are counted"
            assert "/vendor/leaflet/leaflet.js" not in figures["files"], "Leaflet waits for the map"
        check("the first load stays within the 250 KB budget", first_load_within_budget)
    finally:
        for d in drivers.values():
            d.quit()
        session.stop()

    failed = sum(1 for _, e in results if e)
    print(f"{len(results) - failed} passed, {failed} failed")
    if not failed:
        shutil.rmtree(session.dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run())
