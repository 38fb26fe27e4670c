"""What the browser tests share: a `geoqr serve` on a loopback port with a temporary data
directory and a three-cache hunt (teams, an ordered trail, paid hints), headless Chromium
browsers whose location is set through DevTools, and small waiting helpers.
"""
import io, json, math, os, re, shutil, socket, sqlite3, subprocess, sys, tempfile, time, traceback, urllib.error, urllib.request
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
    "id": "BROWSER", "name": "Browser test hunt", "radius": 40, "teams": ["Foxes", "Owls"], "hintCost": 3,
    "trails": [{"id": "t", "name": "Test trail", "ordered": True, "caches": ["A1", "B1", "C1"]}],
    "caches": [
        {"id": "A1", "name": "Rectorate steps", "lat": A1[0], "lon": A1[1], "message": "Welcome to A1, explorer",
         "hint": "under the third step"},
        {"id": "B1", "name": "Library door", "lat": B1[0], "lon": B1[1], "message": "B1: books open doors",
         "hint": "behind the returns box"},
        {"id": "C1", "name": "Canteen", "lat": C1[0], "lon": C1[1], "message": "C1: lunch is served"},
    ],
}


def north_of(point, metres):
    return (point[0] + metres / 111_000, point[1])


class Session:
    """One hunt server and the codes of its caches: the three-cache HUNT above (with a fake
    camera's clip of B1), or the hunt a test gives."""

    def __init__(self, serve_args=(), hunt=None, name="browser"):
        self.dir = tempfile.mkdtemp(prefix=f"geoqr-{name}-")
        self.hunt = os.path.join(self.dir, name + ".json")
        self.data = os.path.join(self.dir, "data")
        with open(self.hunt, "w") as f:
            json.dump(hunt or HUNT, f)
        self.codes = {c["id"]: self.code(c["id"]) for c in (hunt or HUNT)["caches"]}
        self.clip = self.y4m("B1") if hunt is None else None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log = open(os.path.join(self.dir, "serve.log"), "w")
        self.args = [a(self) if callable(a) else a for a in serve_args]
        self.base = f"http://localhost:{self.port}"
        self.start()

    def start(self):
        self.server = subprocess.Popen([GEOQR, "serve", "--hunt", self.hunt, "--data", self.data, "--port", str(self.port), *self.args],
                                       stdout=self.log, stderr=subprocess.STDOUT)
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

    def stop(self, closing=True):
        self.server.terminate()
        try:
            self.server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.server.kill()
        if closing:
            self.log.close()

    def restart(self):
        """The game master restarts `geoqr serve` on the same port and data directory: every
        open stream drops; sign-ins and the ledger are in the data directory and stay."""
        self.stop(closing=False)
        self.start()


    def admin_link(self):
        """The game master's link exactly as `geoqr serve` printed it."""
        for _ in range(50):
            found = re.search(r"game master \(keep private\): (\S+)", open(self.log.name).read())
            if found:
                return found.group(1)
            time.sleep(0.1)
        raise RuntimeError("geoqr serve printed no admin link")


def browser(session, where, camera=False, lang="en-GB", size=(360, 800), script=None):
    """A headless Chromium at `where`, on the app's first page; `script` runs in every page
    before the page's own (to stand in for a browser feature, or take one away)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={size[0]},{size[1]}",
                 "--use-fake-ui-for-media-stream", "--disable-dev-shm-usage", f"--lang={lang}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    if camera:
        options.add_argument("--use-fake-device-for-media-stream")
        options.add_argument("--use-file-for-fake-video-capture=" + session.clip)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": session.base, "permissions": ["geolocation", "videoCapture"]})
    move(driver, where)
    if script:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    driver.get(session.base + "/")
    return driver


def move(driver, where, accuracy=5):
    """The phone is at `where` (None: it finds no satellites and tells no position)."""
    fix = {"latitude": where[0], "longitude": where[1], "accuracy": accuracy} if where else {}
    driver.geoqr_fix = fix
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", fix)


def fresh_fix(driver):
    """The phone's GPS gives a new fix where it is. Chromium's emulated position is one fix,
    given when it is set: a page that asks for a fix no older than 5 s (as a claim does) more
    than 5 s after `move` waits its full 15 s timeout for one that never comes (measured: the
    fourth getCurrentPosition two seconds apart timed out). A real phone's GPS keeps giving fixes,
    so what a claim is about to ask, the harness gives again first."""
    if getattr(driver, "geoqr_fix", None) is not None:
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", driver.geoqr_fix)


def wait(driver, condition, seconds=15, what="condition"):
    """Waits for `condition`; an element a live update replaced while the condition read it
    means reading again, not failing."""
    from selenium.common.exceptions import StaleElementReferenceException
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: condition(d), message=what)


def text(driver, css):
    """The visible text of the first element `css` names ("" when none). A live update that
    replaces the element while it is read means reading it again: answering "" then would make
    a test that waits for a word to go away pass on a page that still shows it."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        try:
            found = driver.find_elements(By.CSS_SELECTOR, css)
            return found[0].text if found else ""
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise RuntimeError(f"{css} was replaced on every read")


def join(driver, name, pin="4321", team=None):
    wait(driver, lambda d: d.find_element(By.ID, "join-button").text, what="the join form in words")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "pin").send_keys(pin)
    if team:
        Select(driver.find_element(By.ID, "team")).select_by_value(team)
    driver.find_element(By.ID, "join-button").click()
    wait(driver, lambda d: d.find_element(By.ID, "app").is_displayed(), what=f"{name} joined")


def claim_by_link(driver, session, cache):
    fresh_fix(driver)
    driver.get(f"{session.base}/C/{session.codes[cache]}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-verdict]") or text(d, ".error"), what="a verdict")
    return driver.find_element(By.CSS_SELECTOR, "[data-verdict]")


def tab(driver, name):
    driver.find_element(By.CSS_SELECTOR, f"nav button[data-tab={name}]").click()




def wait_app(driver):
    wait(driver, lambda d: d.find_element(By.ID, "app").is_displayed(), what="the app")


def api(session, method, path, body=None, token=None):
    """One call to the hunt's API, as a script at a desk would make it."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(session.base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


def serious_violations(driver):
    """axe-core's serious and critical accessibility violations on the page as it stands."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    found = axe.run()["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in found if v["impact"] in ("serious", "critical")]


def tile_png(colour):
    """A 256x256 basemap tile: a flat colour with a grid, as a PNG."""
    from PIL import Image, ImageDraw
    image = Image.new("RGB", (256, 256), colour)
    draw = ImageDraw.Draw(image)
    for i in range(0, 256, 64):
        draw.line([(i, 0), (i, 255)], fill=(150, 150, 150))
        draw.line([(0, i), (255, i)], fill=(150, 150, 150))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def make_mbtiles(path, around, zooms=range(13, 18)):
    """An MBTiles file (SQLite, TMS rows) with tiles covering `around` at each zoom."""
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);""")
    db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "test area"), ("format", "png"),
        ("minzoom", str(min(zooms))), ("maxzoom", str(max(zooms))), ("attribution", "Test tiles © GeoQR tests")])
    png = tile_png((214, 232, 200))
    lats = [p[0] for p in around]
    lons = [p[1] for p in around]
    for z in zooms:
        n = 2 ** z
        def tx(lon): return int((lon + 180) / 360 * n)
        def ty(lat): return int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
        for x in range(tx(min(lons)) - 2, tx(max(lons)) + 3):
            for y in range(ty(max(lats)) - 2, ty(min(lats)) + 3):
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, n - 1 - y, png))
    db.commit()
    db.close()
    return path


class Checks:
    """Runs named checks, printing each, and says at the end how many failed."""

    def __init__(self):
        self.results = []

    def __call__(self, name, body):
        try:
            body()
            self.results.append((name, None))
            print(f"ok   {name}")
        except Exception as error:
            self.results.append((name, error))
            print(f"FAIL {name}: {error}")
            traceback.print_exc()

    @property
    def failed(self):
        return sum(1 for _, e in self.results if e)

    def summary(self):
        print(f"{len(self.results) - self.failed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def click(driver, css, tries=5):
    """Clicks the element `css` names, finding it again if a live update replaced it."""
    from selenium.common.exceptions import StaleElementReferenceException
    for attempt in range(tries):
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            if attempt == tries - 1:
                raise
            time.sleep(0.2)


def run_checks(session, checks):
    """Runs `checks(check, drivers)` (it opens browsers into `drivers` and runs named checks with
    `check`), then quits every browser and stops the server, keeping its folder only when a check
    failed; answers the exit code."""
    drivers = {}
    check = Checks()
    try:
        checks(check, drivers)
    finally:
        for d in drivers.values():
            d.quit()
        session.stop()
    code = check.summary()
    if not code:
        shutil.rmtree(session.dir, ignore_errors=True)
    return code
