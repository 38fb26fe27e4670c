"""Stations' questions and photo tasks in real headless Chromium.

Starts `geoqr serve` on a hunt file this test writes: Q1 asks a multiple-choice question (8 points,
2 off a wrong answer, 3 tries), Q2 a free one (6 points), P1 sets a photo task (12 points).
Shows:
  1. a player finds Q1 and its card opens; she answers wrong (−2, two tries left), then right
     (+8): the card says so and the server's points agree;
  2. she finds Q2, opens its question, loses the network and answers: the answer waits in the
     outbox and the card says so; five minutes later (the kept answer's time moved back, as a
     clock would) the network returns, the answer is sent, the card shows it solved, and the
     ledger counts it once, at the time it was answered, even when the phone sends it again;
  3. she finds P1 and sends a photo (a JPEG this test draws); the game master sees it in the
     control room's Photo tasks and rejects it with a reason; the phone shows the reason as
     text and no points; she sends another, the game master approves it: +12, once;
  4. axe finds no violation in the phone's card nor in the control room's section.
Screenshots go to $GEOQR_SCREENSHOTS (else a temporary folder, printed). Prints 'N passed,
N failed' and exits non-zero on any failure.
"""
import io
from selenium.webdriver.support import expected_conditions
from browser_support import *
from test_offline import Network, paths_in_cache

PLACES = {"Q1": (40.6403, -8.6575, "Tiled fountain"), "Q2": (40.6415, -8.6590, "Old plaque"), "P1": (40.6390, -8.6560, "Statue")}
CHALLENGES_HUNT = {
    "id": "QUIZ", "name": "Quiz walk", "radius": 40,
    "caches": [
        {"id": "Q1", "name": PLACES["Q1"][2], "lat": PLACES["Q1"][0], "lon": PLACES["Q1"][1], "points": 10,
         "challenge": {"question": "What colour are the fountain's tiles?", "choices": ["Blue", "Red", "Green"],
                       "answers": ["Red"], "points": 8, "penalty": 2, "tries": 3}},
        {"id": "Q2", "name": PLACES["Q2"][2], "lat": PLACES["Q2"][0], "lon": PLACES["Q2"][1], "points": 10,
         "challenge": {"question": "Which year is on the plaque?", "answers": ["1911"], "points": 6}},
        {"id": "P1", "name": PLACES["P1"][2], "lat": PLACES["P1"][0], "lon": PLACES["P1"][1], "points": 10,
         "challenge": {"photo": "Your team in front of the statue, <b>everyone</b> waving", "points": 12}},
    ],
}
REASON = "Nobody is waving <i>at all</i>"


def photo_file(folder, name, colour):
    """A 800x600 JPEG drawn here: a coloured field with a figure, as a phone's camera would send."""
    from PIL import Image, ImageDraw
    image = Image.new("RGB", (800, 600), colour)
    draw = ImageDraw.Draw(image)
    draw.ellipse((300, 100, 500, 300), fill=(240, 200, 160))
    draw.rectangle((330, 300, 470, 560), fill=(30, 60, 160))
    path = os.path.join(folder, name)
    image.save(path, "JPEG", quality=85)
    return path


def shoot(driver, name, css):
    """A PNG of the element `css` names (the toasts taken away first)."""
    driver.execute_script("document.getElementById('toasts')?.replaceChildren()")
    driver.find_element(By.CSS_SELECTOR, css).screenshot(os.path.join(SHOTS, name))


def violations(driver, context):
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in axe.run(context)["violations"]]


def open_card(driver, cache):
    """Back to the app's Caches tab and the card of `cache`, found (its button is there)."""
    if not driver.find_elements(By.ID, "cache-list") or not driver.find_element(By.ID, "app").is_displayed():
        driver.get(driver.current_url.split("/C/")[0].rstrip("/") + "/")
        wait_app(driver)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"[data-challenge={cache}]"), what=f"{cache}'s challenge button")
    click(driver, f"[data-challenge={cache}]")
    wait(driver, lambda d: d.find_element(By.ID, "challenge").is_displayed() and text(d, "#challenge .question"),
         what=f"{cache}'s card")


def run():
    session = Session(hunt=CHALLENGES_HUNT, name="challenges")
    check = Checks()
    drivers, networks = {}, []
    started = time.time()
    try:
        ada = drivers["ada"] = browser(session, PLACES["Q1"][:2])
        net = Network(ada)
        networks.append(net)
        admin = re.search(r"#token=(\w+)", session.admin_link()).group(1)
        state = {}

        def points():
            return api(session, "GET", "/api/me", token=state["token"])["points"]

        def question_wrong_then_right():
            join(ada, "Ada")
            state["token"] = ada.execute_script("return localStorage.getItem('geoqr.token')")
            claim_by_link(ada, session, "Q1")
            ada.get(session.base + "/")
            wait_app(ada)
            open_card(ada, "Q1")
            assert text(ada, "#challenge .question") == "What colour are the fountain's tiles?"
            assert "3 of 3 tries left" in text(ada, "#challenge-rules"), text(ada, "#challenge-rules")
            assert [b.text for b in ada.find_elements(By.CSS_SELECTOR, "#challenge [data-choice]")] == ["Blue", "Red", "Green"]
            before = points()
            click(ada, "#challenge [data-choice=Blue]")
            wait(ada, lambda d: "Wrong answer: -2 points." in text(d, "#challenge .result.wrong"), what="the wrong answer's result")
            wait(ada, lambda d: "2 of 3 tries left" in text(d, "#challenge-rules"), what="two tries left")
            shoot(ada, "challenge-wrong.png", "#challenge")
            click(ada, "#challenge [data-choice=Red]")
            wait(ada, lambda d: "Right! +8 points." in text(d, "#challenge .result.right"), what="the right answer's result")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=solved]"), what="the question solved")
            assert not ada.find_elements(By.CSS_SELECTOR, "#challenge [data-choice]"), "no more choices once solved"
            assert points() == before - 2 + 8, (before, points())
            shoot(ada, "challenge-solved.png", "#challenge")
            assert not (found := violations(ada, "#challenge")), found
        check("a question answered wrong (−2, a try gone) then right (+8)", question_wrong_then_right)

        def offline_answer_counts_once_at_its_time():
            move(ada, PLACES["Q2"][:2])
            claim_by_link(ada, session, "Q2")
            ada.get(session.base + "/")
            wait_app(ada)
            wait(ada, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), what="the service worker controls the app")
            open_card(ada, "Q2")
            wait(ada, lambda d: "/offline/answers.js" in paths_in_cache(d, "geoqr-shell-"), what="the answers module in the shell")
            before = points()
            net.offline(True)
            field = ada.find_element(By.ID, "challenge-answer")
            field.send_keys("1911")
            click(ada, "#challenge-form button[type=submit]")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=waiting]"), what="the answer waiting")
            assert "“1911” is waiting for the network" in text(ada, "#challenge [data-state=waiting]")
            assert not ada.find_elements(By.ID, "challenge-form"), "no second answer while one waits"
            shoot(ada, "challenge-waiting.png", "#challenge")
            # Five minutes without network: the kept answer's time goes back as a clock would.
            entries = ada.execute_async_script("""const done = arguments[0];
                (async () => {
                  const outbox = await import('/offline/outbox.js');
                  for (const e of await outbox.waiting()) await outbox.keep(e, e, new Date(Date.parse(e.scannedAt) - 300000).toISOString());
                  done(await outbox.waiting());
                })();""")
            assert len(entries) == 1 and entries[0]["kind"] == "answer" and entries[0]["cache"] == "Q2", entries
            kept = entries[0]
            net.offline(False)
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=solved]"), seconds=30,
                 what="the kept answer sent: the question solved")
            assert points() == before + 6, (before, points())
            # The phone sends it once more (a retry that crossed the answer): it counts once.
            again = api(session, "POST", "/api/caches/Q2/answer", {"answer": "1911", "answerId": kept["claimId"],
                                                                   "answeredAt": kept["scannedAt"]}, token=state["token"])
            assert again["isNew"] is False, again
            assert points() == before + 6
            events = [json.loads(line) for line in urllib.request.urlopen(urllib.request.Request(
                session.base + "/api/admin/ledger?private=1", headers={"Authorization": "Bearer " + admin})).read().splitlines()]
            answered = [json.loads(e["body"]) for e in events if e["kind"] == "challenge-answered" and '"Q2"' in e["body"]]
            assert len(answered) == 1, answered
            at = int(datetime_ms(kept["scannedAt"]))
            assert answered[0]["answeredMs"] == at, (answered[0], at)
        check("an answer given with no network waits, is sent when it returns, and counts once at its time",
              offline_answer_counts_once_at_its_time)

        def photo_rejected_then_approved():
            move(ada, PLACES["P1"][:2])
            claim_by_link(ada, session, "P1")
            ada.get(session.base + "/")
            wait_app(ada)
            open_card(ada, "P1")
            assert text(ada, "#challenge .question") == CHALLENGES_HUNT["caches"][2]["challenge"]["photo"], "the task as text"
            field = ada.find_element(By.ID, "challenge-photo")
            assert field.get_attribute("accept") == "image/*" and field.get_attribute("capture") == "environment"
            before = points()
            field.send_keys(photo_file(session.dir, "first.jpg", (90, 160, 90)))
            click(ada, "#challenge-photo-send")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=pending]"), what="the photo waiting")
            shoot(ada, "photo-pending.png", "#challenge")

            gm = drivers["gm"] = browser(session, PLACES["P1"][:2], size=(1280, 1000))
            gm.get(session.admin_link())
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#photo-waiting li[data-submission]"), what="the photo in the control room")
            item = "#photo-waiting li[data-submission]"
            assert "Ada · Statue (P1)" in text(gm, item), text(gm, item)
            wait(gm, lambda d: d.execute_script("const i = document.querySelector('#photo-waiting img'); return i && i.complete && i.naturalWidth > 0"),
                 what="the photo shown")
            width = gm.execute_script("return document.querySelector('#photo-waiting img').naturalWidth")
            assert 0 < width < 800, f"the kept photo is the server's re-encoded thumbnail, not the 800 px original: {width}"
            gm.execute_script("document.getElementById('photo-tasks-section').scrollIntoView()")
            shoot(gm, "control-room-photo-waiting.png", "#photo-tasks-section")
            assert not (found := violations(gm, "#photo-tasks-section")), found
            # The list is drawn again while the game master types (any player's news refreshes
            # the control room, and the photo's age has moved on): the reason typed so far and
            # the keyboard focus stay.
            # The list is drawn anew every second while the age moves (a fresh clone's run met
            # it between finding the field and typing): find it again and type what is missing.
            from selenium.common.exceptions import StaleElementReferenceException
            for attempt in range(5):
                typing = gm.find_element(By.CSS_SELECTOR, "#photo-waiting input[data-reason]")
                try:
                    typing.send_keys(REASON[len(typing.get_attribute("value") or ""):10])
                    break
                except StaleElementReferenceException:
                    if attempt == 4: raise
            time.sleep(1.1)   # "sent N s ago" reads differently now, so the list is drawn anew
            api(session, "POST", "/api/join", {"name": "Lia Costa", "pin": "2468"})
            WebDriverWait(gm, 15).until(expected_conditions.staleness_of(typing), message="the photo list drawn again")
            field = gm.find_element(By.CSS_SELECTOR, "#photo-waiting input[data-reason]")
            assert field.get_attribute("value") == REASON[:10], f"the reason typed so far was lost: {field.get_attribute('value')!r}"
            assert gm.switch_to.active_element == field, "the reason's field lost the keyboard focus"
            field.send_keys(REASON[10:])
            click(gm, "#photo-waiting [data-reject]")
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#photo-judged li[data-state=rejected]"), what="the photo judged")
            assert REASON in text(gm, "#photo-judged li[data-state=rejected]")

            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=rejected]"), what="the phone hears the rejection")
            shown = text(ada, "#challenge [data-state=rejected]")
            assert shown == f"Rejected by the game master: {REASON}", shown   # the reason as text, never markup
            assert not ada.find_elements(By.CSS_SELECTOR, "#challenge i"), "no markup from the game master's words"
            assert points() == before, "no points for a rejected photo"
            shoot(ada, "photo-rejected.png", "#challenge")
            assert not (found := violations(ada, "#challenge")), found

            ada.find_element(By.ID, "challenge-photo").send_keys(photo_file(session.dir, "second.jpg", (200, 120, 60)))
            click(ada, "#challenge-photo-send")
            wait(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#challenge [data-state=pending]"), what="the second photo waiting")
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#photo-waiting [data-approve]"), what="the second photo in the control room")
            click(gm, "#photo-waiting [data-approve]")
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "#photo-judged li[data-state=approved]"), what="the photo approved")
            wait(ada, lambda d: "Approved! +12 points." in text(d, "#challenge [data-state=approved]"), what="the phone hears the approval")
            assert points() == before + 12, (before, points())
            assert not ada.find_elements(By.ID, "challenge-photo"), "no more photos once approved"
            shoot(ada, "photo-approved.png", "#challenge")
            shoot(gm, "control-room-photo-judged.png", "#photo-tasks-section")
        check("a photo rejected with a reason (shown as text, no points), another approved (+12 once)", photo_rejected_then_approved)
    finally:
        for network in networks:
            network.close()
        for driver in drivers.values():
            try:
                driver.quit()
            except Exception:
                pass
        session.stop()
    print(f"screenshots in {SHOTS}; {time.time() - started:.0f} s")
    return check.summary()


def datetime_ms(iso_text):
    from datetime import datetime
    return datetime.fromisoformat(iso_text.replace("Z", "+00:00")).timestamp() * 1000


if __name__ == "__main__":
    sys.exit(run())
