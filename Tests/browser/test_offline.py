"""Playing with no network, and the short code typed from a card, in real headless Chromium.

The hunt server runs on http://localhost (a secure context), so the service worker installs.
The network is cut as a phone's dies: DevTools' offline emulation for the page and for the
service worker (a DevTools target of its own, whose fetches the page's emulation does not
reach). Shows:
  1. the service worker takes the app and keeps its shell and the player's state;
  2. a typed code claims a cache (any case, spaces for hyphens); a wrong one is forged; a text
     that is no typed code is refused with the server's sentence;
  3. with no network, a claim link (/C/…, opened from the app) and a typed code are kept on
     the phone; the app itself opens from the cache; both show as waiting, with a banner;
  4. when the network returns both are sent: finds at the scan's time and place, marked late
     for the player and in the control room's feed, recorded once however often re-sent; a
     scan older than the hunt's grace period is refused with the server's sentence;
  5. a phone that reads QR codes itself (BarcodeDetector) sends only the text, also offline;
  6. the claim page offers the typed code when the QR's code is refused;
  7. without a service worker (an old browser, an untrusted certificate) the page keeps the
     claim while it is open and says so.
axe-core finds no serious or critical violation in the pages as they stand offline.
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import hashlib, hmac, time
from datetime import datetime, timedelta, timezone
import websocket
from browser_support import *

SHELL = {"/", "/claim.html", "/app.js", "/claim.js", "/app.css", "/checkin.html", "/i18n/en.json", "/vendor/leaflet/leaflet.js",
         # the modules the pages import, so the app and the claim page load with no network
         "/dom.js", "/words.js", "/session.js", "/api.js", "/hunt.js", "/codes.js", "/position.js", "/verdict.js", "/stream.js",
         "/map.js", "/typed-code-form.js", "/offline/outbox.js", "/offline/worker.js", "/offline/claims.js",
         "/offline/outbox-panel.js", "/app/join.js", "/app/whereabouts.js", "/app/tab-caches.js", "/app/tab-map.js",
         "/app/tab-scan.js", "/app/tab-collection.js", "/app/tab-trades.js", "/app/tab-board.js"}
# The page's outbox, as its modules hold it (one module instance per page, so the page hears its changes).
OUTBOX = "import('/offline/outbox.js')"
STATE = {"/api/hunt", "/api/me", "/api/caches", "/api/leaderboard"}


def typed_code(session, cache):
    """The short code printed under a cache's QR: its id and 8 characters of Crockford base32
    of HMAC-SHA256("GQT1.HUNT.CACHE") with the hunt's secret (`TypedCode` in the Swift sources)."""
    key = open(os.path.join(session.data, "secrets", HUNT["id"] + ".key"), "rb").read()
    mac = int.from_bytes(hmac.new(key, f"GQT1.{HUNT['id']}.{cache}".encode(), hashlib.sha256).digest()[:5], "big")
    symbols = "".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(mac >> (35 - 5 * i)) & 31] for i in range(8))
    return f"{cache}-{symbols[:4]}-{symbols[4:]}"


class Network:
    """A browser's network, cut and restored the way DevTools' "Offline" does it: for the page
    (through Selenium) and for its service worker (attached over the browser's DevTools socket)."""

    def __init__(self, driver):
        self.driver = driver
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        url = json.load(urllib.request.urlopen(f"http://{address}/json/version"))["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=15)
        self.sent = 0
        self.workers = {}

    def call(self, method, params=None, session=None):
        self.sent += 1
        message = {"id": self.sent, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.sent:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def attach_worker(self):
        """Attaches to the page's service worker (woken by a message if idle); attached, the
        browser keeps it running, so the same worker takes every cut."""
        def attached(driver):
            driver.execute_script("navigator.serviceWorker?.controller?.postMessage('ping')")
            for target in self.call("Target.getTargets")["targetInfos"]:
                if target["type"] == "service_worker" and target["targetId"] not in self.workers:
                    session = self.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
                    self.call("Network.enable", {}, session)   # the emulation applies only with it
                    self.workers[target["targetId"]] = session
            return self.workers
        wait(self.driver, attached, what="the service worker to attach to")

    def offline(self, cut):
        conditions = {"offline": cut, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        if self.driver.execute_script("return !!navigator.serviceWorker?.controller"):
            self.attach_worker()
        # The worker first: when the page hears `online` it asks the worker to send at once.
        for session in self.workers.values():
            self.call("Network.emulateNetworkConditions", conditions, session)
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
        wait(self.driver, lambda d: d.execute_script("return navigator.onLine") == (not cut), what="navigator.onLine follows")

    def close(self):
        self.socket.close()


def type_code(driver, code):
    fresh_fix(driver)
    field = driver.find_element(By.ID, "typed-code")
    field.clear()
    field.send_keys(code)
    # A toast ("you are within 50 m of …") may lie over the button: press it as a keyboard would.
    driver.execute_script("arguments[0].click()", driver.find_element(By.CSS_SELECTOR, "#typed-form button[type=submit]"))


def send_typed(driver, code):
    """Sends a typed code and waits for the form's answer, whatever it is (a verdict, a kept
    claim or a sentence): the form's button is disabled from the press until the answer shows.
    Under the sanitizer beside the other suites an answer took longer than a fixed 15 s wait
    twice in CI, and the wait told nothing of what the page showed; this one waits a minute,
    says how long a slow answer took, and leaves the test to say what the answer was."""
    button = "#typed-form button[type=submit]"
    started = time.monotonic()
    type_code(driver, code)
    wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, button).get_attribute("disabled"),
         seconds=60, what=f"an answer to the typed code {code!r}")
    took = time.monotonic() - started
    if took > 5:
        print(f"     (the answer to {code!r} took {took:.1f} s)")


def shot(driver, name, css=None):
    """A screenshot of the phone's screen, scrolled to `css` first."""
    if css:
        driver.execute_script("document.querySelector(arguments[0])?.scrollIntoView({ block: 'center' })", css)
    driver.save_screenshot(os.path.join(SHOTS, name))


def paths_in_cache(driver, prefix):
    """The paths kept in the caches whose names start with `prefix` (the shell's carries the
    service worker's version: geoqr-shell-v3)."""
    return set(driver.execute_async_script("""const done = arguments[1];
        caches.keys().then(names => Promise.all(names.filter(n => n.startsWith(arguments[0])).map(n => caches.open(n).then(c => c.keys()))))
          .then(lists => done(lists.flat().map(r => new URL(r.url).pathname)), () => done([]));""", prefix))


def outbox(driver):
    return driver.execute_async_script(OUTBOX + ".then(outbox => outbox.waiting()).then(arguments[0], () => arguments[0]([]))")


def iso(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def run():
    session = Session()
    drivers, networks = {}, []
    check = Checks()
    try:
        ada = drivers["ada"] = browser(session, C1)
        gm = drivers["gm"] = browser(session, C1, size=(1280, 1000))
        ada_net = Network(ada)
        networks.append(ada_net)
        kept = {}

        def worker_takes_the_app():
            join(ada, "Ada", team="Foxes")
            wait(ada, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), what="the service worker controls the app")
            wait(ada, lambda d: SHELL <= paths_in_cache(d, "geoqr-shell-"), what="the app's shell in the cache")
            wait(ada, lambda d: STATE <= paths_in_cache(d, "geoqr-state-v1"), what="the hunt's state in the cache")
            assert not any(p.startswith("/api/admin") or p == "/api/live" for p in paths_in_cache(ada, "geoqr-state-v1"))
            ada_net.attach_worker()
        check("the service worker takes the app and keeps its shell and the player's state", worker_takes_the_app)

        def typed_codes_online():
            tab(ada, "scan")
            input_ = ada.find_element(By.ID, "typed-code")
            assert input_.get_attribute("autocapitalize") == "characters" and input_.get_attribute("inputmode") == "text"
            send_typed(ada, "hello")
            assert "typed code" in text(ada, "#typed-error"), ("the server's sentence for a text that is no typed code", text(ada, "#typed-error"))
            assert not ada.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict]")
            send_typed(ada, "C1-0000-0000")
            assert ada.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict=forged]"), \
                ("a wrong typed code is forged", text(ada, "#scan-result"), text(ada, "#typed-error"))
            assert text(ada, "#typed-error") == ""
            shot(ada, "typed-forged.png", "#typed-form")
            # A phone whose GPS does not answer a fresh request (it takes the full 15 s): the fix
            # the app watched a moment ago stands in after 3 s, and the claim is a find there.
            ada.execute_script("navigator.geolocation.getCurrentPosition = () => {}")
            try:
                started = time.monotonic()
                type_code(ada, typed_code(session, "C1").lower().replace("-", " "))
                wait(ada, lambda d: not d.find_element(By.CSS_SELECTOR, "#typed-form button[type=submit]").get_attribute("disabled"),
                     seconds=12, what="an answer with the watched fix, the fresh one never given")
                assert time.monotonic() - started >= 2.5, "answered before the fresh fix's 3 s"
            finally:
                ada.execute_script("delete navigator.geolocation.getCurrentPosition")
            assert ada.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict=claimable]"), \
                (text(ada, "#scan-result"), text(ada, "#typed-error"))
            assert text(ada, "#revealed") == "C1: lunch is served", text(ada, "#revealed")
            shot(ada, "typed-found.png", "#scan-result")
        check("a typed code claims a cache; a wrong one is forged; a text that is no code is refused in a sentence", typed_codes_online)

        def scans_wait_with_no_network():
            gm.get(session.admin_link())
            wait(gm, lambda d: re.search(r"\d+ players? ·", text(d, "#status")), what="the control room")
            move(ada, north_of(A1, 10))
            ada_net.offline(True)
            wait(ada, lambda d: "No network" in text(d, "#outbox-banner"), what="the banner says there is no network")
            # The claim link, opened from the page already loaded: with no network the service
            # worker answers with the claim page from its cache.
            ada.execute_script("location.assign(arguments[0])", "/C/" + session.codes["A1"])
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result .kept"), what="the claim kept on the phone")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#outbox-list li")) == 1, what="one claim waiting")
            assert "kept on your phone" in text(ada, "#claim-result"), text(ada, "#claim-result")
            shot(ada, "offline-claim-page.png")
            assert not (found := serious_violations(ada)), found
            ada.execute_script("location.assign('/')")
            wait_app(ada)   # the app opens from the cache
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cache-list li")) == 3, what="the caches, from the cache")
            move(ada, B1)
            tab(ada, "scan")
            type_code(ada, typed_code(session, "B1"))
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result .kept"), what="the typed code kept on the phone")
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#outbox-list li")) == 2, what="two claims waiting")
            assert text(ada, "#outbox-banner") == "2 scans waiting to send", text(ada, "#outbox-banner")
            assert [li.get_attribute("data-method") for li in ada.find_elements(By.CSS_SELECTOR, "#outbox-list li")] == ["link", "typed"]
            assert not ada.find_element(By.ID, "outbox-notice").is_displayed(), "a service worker runs: no notice"
            shot(ada, "offline-waiting.png", "#outbox")
            assert not (found := serious_violations(ada)), found
            tab(ada, "caches")
            assert ada.find_element(By.ID, "outbox-banner").is_displayed(), "the banner shows on every tab"
            tab(ada, "scan")
        check("with no network a claim link and a typed code are kept, the app opens from the cache, both show as waiting",
              scans_wait_with_no_network)

        def sent_when_the_network_returns():
            # Five minutes pass without network: the kept scans' times go back as a clock would.
            # And one scan kept three hours ago, longer than the hunt's grace (120 minutes).
            entries = ada.execute_async_script("""const done = arguments[0];
                (async () => {
                  const outbox = await """ + OUTBOX + """;
                  const list = await outbox.waiting();
                  for (const e of list) await outbox.keep(e, e, new Date(Date.parse(e.scannedAt) - 300000).toISOString());
                  const old = { ...list[0], claimId: outbox.newClaimId() };
                  if (list.length) await outbox.keep(old, old, new Date(Date.now() - 3 * 3600000).toISOString());
                  done(await outbox.waiting());
                })();""")
            assert len(entries) == 3 and all(e.get("code") for e in entries), entries
            kept.update({e["method"]: e for e in entries[1:]})
            wait(ada, lambda d: text(d, "#outbox-banner") == "3 scans waiting to send", what="three waiting")
            move(ada, C1)   # the player is elsewhere when the network returns
            ada_net.offline(False)
            wait(ada, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict=claimable], #outbox-sent [data-verdict=claimable]")) == 2,
                 seconds=30, what="both kept claims are finds")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#outbox-sent [data-error=claim-too-late]"), what="the old scan refused")
            refusal = text(ada, "#outbox-sent [data-error=claim-too-late]")
            assert re.search(r"this scan is 1[89]\d minutes old", refusal) and "120 minutes" in refusal, refusal
            wait(ada, lambda d: not d.find_element(By.ID, "outbox").is_displayed() and not d.find_element(By.ID, "outbox-banner").is_displayed(),
                 what="nothing left waiting")
            assert outbox(ada) == []
            # Five minutes, and the seconds the test took while the scans waited.
            late = [int(e.get_attribute("data-late")) for e in ada.find_elements(By.CSS_SELECTOR, "#scan-result .sent, #outbox-sent .sent")
                    if e.get_attribute("data-late")]
            assert len(late) == 2 and all(300 <= s < 420 for s in late), late
            assert re.search(r"sent [56] min after the scan", text(ada, "#scan-result") + text(ada, "#outbox-sent"))
            shot(ada, "offline-sent.png", "#outbox-sent")
            shot(ada, "offline-sent-typed.png", "#scan-result")
        check("when the network returns both are sent and found; a scan older than the grace is refused in a sentence",
              sent_when_the_network_returns)

        def found_at_the_scan_recorded_once():
            token = ada.execute_script("return localStorage.getItem('geoqr.token')")
            finds = {f["cache"]: f for f in api(session, "GET", "/api/me/finds", token=token)["finds"]}
            assert set(finds) == {"A1", "B1", "C1"}, finds
            for cache, method in (("A1", "link"), ("B1", "typed")):
                scanned = iso(kept[method]["scannedAt"])
                assert abs((iso(finds[cache]["time"]) - scanned).total_seconds()) < 1, (finds[cache], scanned)
            cards = {c["cache"]: c for c in api(session, "GET", "/api/me/collection", token=token)["cards"]}
            for cache, where in (("A1", north_of(A1, 10)), ("B1", B1)):
                assert abs(cards[cache]["foundLatitude"] - where[0]) < 1e-5 and abs(cards[cache]["foundLongitude"] - where[1]) < 1e-5, cards[cache]
            # A phone that never heard the answer sends the claim again: the same answer, no new find.
            entry = kept["link"]
            body = {k: entry[k] for k in ("code", "method", "latitude", "longitude", "accuracy", "claimId", "scannedAt")}
            again = api(session, "POST", "/api/claims", body, token=token)
            assert again["verdict"] == "claimable" and again["find"] == finds["A1"]["id"], again
            assert len(api(session, "GET", "/api/me/finds", token=token)["finds"]) == 3
        check("the finds are at the scan's time and place, and a re-send records nothing new", found_at_the_scan_recorded_once)

        def control_room_marks_them_late():
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#feed li .late")) == 2, what="two late claims in the feed")
            lines = [li.text for li in gm.find_elements(By.CSS_SELECTOR, "#feed li") if li.find_elements(By.CSS_SELECTOR, ".late")]
            assert all(re.search(r"late by [56] min", line) for line in lines), lines
            assert any("typed code" in line for line in lines), lines
            gm.save_screenshot(os.path.join(SHOTS, "control-room-late.png"))
        check("the control room's feed marks the kept claims late", control_room_marks_them_late)

        def phone_reads_the_code_itself():
            # Chromium on Linux has no BarcodeDetector: one that reads B1's code stands in for a phone's.
            cy = drivers["cy"] = browser(session, B1, camera=True, script="""window.BarcodeDetector = class {
                static async getSupportedFormats() { return ["qr_code"]; }
                async detect(video) { return video.videoWidth ? [{ rawValue: %s }] : []; } };""" % json.dumps(session.codes["B1"]))
            join(cy, "Cy", team="Owls")
            wait(cy, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), what="Cy's service worker")
            cy_net = Network(cy)
            networks.append(cy_net)
            cy_net.offline(True)
            tab(cy, "scan")
            cy.find_element(By.ID, "camera-start").click()
            wait(cy, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result .kept"), seconds=30, what="the camera's code kept")
            assert [li.get_attribute("data-method") for li in cy.find_elements(By.CSS_SELECTOR, "#outbox-list li")] == ["camera"]
            cy_net.offline(False)
            wait(cy, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict=claimable]"), seconds=30, what="B1 found")
            frames = cy.execute_script("return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/claims/frame')).length")
            assert frames == 0, f"{frames} frames were sent"
        check("a phone that reads the code itself sends only its text, also with no network", phone_reads_the_code_itself)

        def claim_page_offers_the_typed_code():
            di = drivers["di"] = browser(session, C1)
            join(di, "Di")
            code = session.codes["C1"]
            damaged = code[:-1] + ("A" if code[-1] != "A" else "B")   # a misprinted or altered QR
            di.get(f"{session.base}/C/{damaged}")
            wait(di, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict=forged]"), what="the damaged code is forged")
            wait(di, lambda d: d.find_element(By.ID, "typed-form").is_displayed(), what="the typed code offered")
            type_code(di, typed_code(session, "C1"))
            wait(di, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict=claimable]"), what="C1 found by its typed code")
            shot(di, "claim-page-typed.png")
        check("the claim page offers the typed code when the QR's code is refused", claim_page_offers_the_typed_code)

        def without_a_worker_the_page_keeps_them():
            bo = drivers["bo"] = browser(session, C1, script="delete Navigator.prototype.serviceWorker;")   # an old browser
            join(bo, "Bo")
            assert not bo.execute_script("return 'serviceWorker' in navigator")
            bo_net = Network(bo)
            networks.append(bo_net)
            bo_net.offline(True)
            tab(bo, "scan")
            type_code(bo, typed_code(session, "C1"))
            wait(bo, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result .kept"), what="kept in the page")
            notice = text(bo, "#outbox-notice")
            assert notice == "Offline play needs a trusted certificate: keep this page open until your waiting scans are sent.", notice
            shot(bo, "offline-no-worker.png", "#outbox")
            assert not (found := serious_violations(bo)), found
            bo_net.offline(False)
            wait(bo, lambda d: d.find_elements(By.CSS_SELECTOR, "#scan-result [data-verdict=claimable]"), seconds=30, what="sent from the page")
            assert not bo.find_element(By.ID, "outbox-notice").is_displayed()
        check("without a service worker the page keeps the claim while open and says so", without_a_worker_the_page_keeps_them)
    finally:
        for n in networks:
            n.close()
        for d in drivers.values():
            d.quit()
        session.stop()

    status = check.summary()
    print("screenshots in", SHOTS)
    if not status:
        shutil.rmtree(session.dir, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(run())
