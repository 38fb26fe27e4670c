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
import json, os, re, shutil, socket, subprocess, sys, tempfile, time, traceback, urllib.error, urllib.request
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait, Select

GEOQR = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geoqr"
# Screenshots of the pages as the tests leave them, to look at.
SHOTS = os.environ.get("GEOQR_SCREENSHOTS") or tempfile.mkdtemp(prefix="geoqr-shots-")
A1 = (40.6303, -8.6575)
B1 = (40.6320, -8.6590)
C1 = (40.6290, -8.6560)
HUNT = {
    "id": "BROWSER", "name": "Browser test hunt", "radius": 40,
    "trails": [{"id": "t", "name": "Test trail", "caches": ["A1", "B1", "C1"]}],
    "caches": [
        {"id": "A1", "name": "Rectorate steps", "lat": A1[0], "lon": A1[1], "message": "Welcome to A1, explorer"},
        {"id": "B1", "name": "Library door", "lat": B1[0], "lon": B1[1], "message": "B1: books open doors"},
        {"id": "C1", "name": "Canteen", "lat": C1[0], "lon": C1[1], "message": "C1: lunch is served"},
    ],
}


def north_of(point, metres):
    return (point[0] + metres / 111_000, point[1])


class Session:
    """One hunt server and the codes of its caches."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="geoqr-browser-")
        self.hunt = os.path.join(self.dir, "browser.json")
        self.data = os.path.join(self.dir, "data")
        with open(self.hunt, "w") as f:
            json.dump(HUNT, f)
        self.codes = {c: self.code(c) for c in ("A1", "B1", "C1")}
        self.clip = self.y4m("B1")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log = open(os.path.join(self.dir, "serve.log"), "w")
        self.server = subprocess.Popen([GEOQR, "serve", "--hunt", self.hunt, "--data", self.data, "--port", str(self.port)],
                                       stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://localhost:{self.port}"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("geoqr serve did not start: " + open(self.log.name).read())

    def code(self, cache):
        png = os.path.join(self.dir, cache + ".png")
        subprocess.run([GEOQR, "code", self.hunt, cache, "-o", png, "--size", "8", "--data", self.data], check=True, capture_output=True)
        out = subprocess.run([GEOQR, "decode", png], check=True, capture_output=True, text=True).stdout
        return out.split(": ", 1)[1].strip()

    def y4m(self, cache):
        """Three seconds of the code on a 640x480 grey background, as a fake camera plays it."""
        png, clip = os.path.join(self.dir, cache + ".png"), os.path.join(self.dir, cache + ".y4m")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-loop", "1", "-i", png, "-t", "3", "-r", "10",
                        "-vf", "scale=400:400,pad=640:480:120:40:color=white,format=yuv420p", "-f", "yuv4mpegpipe", clip], check=True)
        return clip

    def stop(self):
        self.server.terminate()
        try:
            self.server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.server.kill()
        self.log.close()


def browser(session, where, camera=False):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=360,800",
                 "--use-fake-ui-for-media-stream", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    if camera:
        options.add_argument("--use-fake-device-for-media-stream")
        options.add_argument("--use-file-for-fake-video-capture=" + session.clip)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": session.base, "permissions": ["geolocation", "videoCapture"]})
    move(driver, where)
    driver.get(session.base + "/")
    return driver


def move(driver, where):
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": where[0], "longitude": where[1], "accuracy": 5})


def wait(driver, condition, seconds=15, what="condition"):
    return WebDriverWait(driver, seconds).until(lambda d: condition(d), message=what)


def text(driver, css):
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else ""


def join(driver, name, pin="4321"):
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "pin").send_keys(pin)
    driver.find_element(By.ID, "join-button").click()
    wait(driver, lambda d: d.find_element(By.ID, "app").is_displayed(), what=f"{name} joined")


def claim_by_link(driver, session, cache):
    driver.get(f"{session.base}/C/{session.codes[cache]}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-verdict]") or text(d, ".error"), what="a verdict")
    return driver.find_element(By.CSS_SELECTOR, "[data-verdict]")


def tab(driver, name):
    driver.find_element(By.CSS_SELECTOR, f"nav button[data-tab={name}]").click()


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
            log = open(session.log.name).read()
            link = re.search(r"game master \(keep private\): (\S+)", log).group(1)
            gm = drivers["gm"] = browser(session, C1)
            gm.set_window_size(1280, 900)
            gm.get(link)
            wait(gm, lambda d: "Bo" in text(d, "#players") and "Ada" in text(d, "#standings"), what="players and standings")
            assert text(gm, "#admin-error") == "", text(gm, "#admin-error")
            gm.execute_script("window.prompt = () => '8642';")
            row = [li for li in gm.find_elements(By.CSS_SELECTOR, "#players li") if " Bo" in li.text][0]
            row.find_element(By.TAG_NAME, "button").click()
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
