"""Courses in real headless Chromium: the phone's course card, the control room's split tables
and still-out list, and the big screen.

Starts `geoqr serve` on a hunt file this test writes (Park-O's shape on its own coordinates: a
line course YELLOW started by punching S1, and a one-minute score course SCORE with a mass start
and 10 points off a minute started over; a runner silent for a minute is overdue). Five runners:
Lia and Leo on the line, Ana, Ben and Cy on the score course, each of the three with a phone in
Chromium, as Lia. Punches are claims with each cache's code at its coordinates, sent late with
`scannedAt` as a phone's outbox sends them (the score runners' from their own phones), so every
time is known: a claim scanned less than a minute ago counts as scanned now, so the score
course's punches wait until two minutes after the mass start. Shows:
  1. before a start, the phone's card lists both courses and how each starts;
  2. the game master gives the mass start with the control room's button; the phone hears it;
  3. a line runner's card shows the next control and a running time from the server's clock
     (the phone's clock is an hour fast), ticking; a score runner past the limit is warned;
  4. Lia runs the line clean; Leo skips K2 (mispunch); Ana finishes the score course in time,
     Ben over time, Cy never comes back and is overdue in the still-out list; each score
     runner's phone shows their own result;
  5. the game master stops the hunt (Cy did not finish): the split tables show the statuses,
     times, points, penalties, ranks, splits and legs worked out below by hand;
  6. the big screen, from the link `geoqr serve` printed, shows the standings (a name that is
     markup as text), teams, latest finds and each course's results, cycles by itself, speaks
     Portuguese, and refuses a bad link in one line; axe finds no violation on it nor in the
     control room's courses;
  7. the game master disqualifies Leo with a reason.
Screenshots of the phone's card, the control room's courses and every board panel go to
$GEOQR_SCREENSHOTS (else a temporary folder, printed). Prints 'N passed, N failed' and exits
non-zero on any failure.
"""
import base64
from datetime import datetime, timedelta, timezone
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from browser_support import *

CACHES = {"S1": (40.64690, -8.65210, "Start: park gate"), "K1": (40.64560, -8.65100, "Bandstand"),
          "K2": (40.64430, -8.65280, "Lake bridge"), "K3": (40.64300, -8.65090, "Old greenhouse"),
          "K4": (40.64410, -8.64900, "Stone table"), "K5": (40.64620, -8.64870, "Fountain"),
          "K6": (40.64220, -8.65330, "Tall cedar"), "F1": (40.64720, -8.65010, "Finish: café terrace")}
POINTS = {"S1": 0, "K1": 10, "K2": 20, "K3": 20, "K4": 30, "K5": 30, "K6": 40, "F1": 0}
COURSES_HUNT = {
    "id": "PARKT", "name": "Park-O test morning", "radius": 25, "teams": ["Foxes", "Owls"], "stillOutWarningMinutes": 1,
    "courses": [
        {"id": "yellow", "name": "Yellow (line)", "kind": "line", "start": "S1", "controls": ["K1", "K2", "K3", "K4"],
         "finish": "F1", "timeLimitMinutes": 60},
        {"id": "score", "name": "Score sprint", "kind": "score", "controls": ["K1", "K2", "K3", "K4", "K5", "K6"],
         "finish": "F1", "timeLimitMinutes": 1, "penaltyPerMinute": 10},
    ],
    "caches": [{"id": c, "name": n, "lat": la, "lon": lo, "points": POINTS[c], "message": f"Control {c}."}
               for c, (la, lo, n) in CACHES.items()],
}
# Punches, in seconds: the line course's from a time B taken as the test starts (before it), the
# score course's after its mass start.
LINE = {"Lia": [("S1", -2400), ("K1", -2100), ("K2", -1900), ("K3", -1500), ("K4", -1300), ("F1", -1200)],
        "Leo": [("S1", -3000), ("K1", -2700), ("K3", -2280), ("K4", -2160), ("F1", -1980)]}
SCORE = {"Ana": [("K1", 10), ("K5", 25), ("F1", 50)], "Ben": [("K2", 15), ("K4", 40), ("K6", 55), ("F1", 75)],
         "Cy": [("K3", 30)]}
# What the split tables must say, worked out by hand from the punches above.
#   Lia: K1 5:00 (+5:00), K2 8:20 (+3:20), K3 15:00 (+6:40), K4 18:20 (+3:20), finish 20:00: OK, 1st.
#   Leo: K1 5:00, K2 never, K3 12:00 (+7:00 from K1), K4 14:00 (+2:00), finish 17:00: mispunch.
#   Ben: K2 0:15, K4 0:40 (+0:25), K6 0:55 (+0:15), finish 1:15, 15 s over the minute: one
#        minute started, 10 off; 20 + 30 + 40 = 90 points, score 80: over time, placed 1st.
#   Ana: K1 0:10, K5 0:25 (+0:15), finish 0:50: 10 + 30 = 40, OK, 2nd.
#   Cy:  K3 0:30, no finish when the hunt stops: did not finish, 20 points, no rank.
EXPECTED = {
    "YELLOW": {
        "Lia": {"rank": "1", "status": "OK", "time": "20:00",
                "splits": {"K1": ("5:00", "+5:00"), "K2": ("8:20", "+3:20"), "K3": ("15:00", "+6:40"), "K4": ("18:20", "+3:20")}},
        "Leo": {"rank": "", "status": "Mispunch", "time": "17:00",
                "splits": {"K1": ("5:00", "+5:00"), "K2": None, "K3": ("12:00", "+7:00"), "K4": ("14:00", "+2:00")}},
    },
    "SCORE": {
        "Ben": {"rank": "1", "status": "Over time", "time": "1:15", "points": "90", "penalty": "−10", "score": "80",
                "splits": {"K2": ("0:15", "+0:15"), "K4": ("0:40", "+0:25"), "K6": ("0:55", "+0:15"), "K1": None}},
        "Ana": {"rank": "2", "status": "OK", "time": "0:50", "points": "40", "penalty": "0", "score": "40",
                "splits": {"K1": ("0:10", "+0:10"), "K5": ("0:25", "+0:15"), "K2": None}},
        "Cy": {"rank": "", "status": "Did not finish", "time": "—", "points": "20", "penalty": "0", "score": "20",
               "splits": {"K3": ("0:30", "+0:30"), "K6": None}},
    },
}
# A player on no course, whose name is markup: the big screen shows it as text.
WATCHER = "<i>Eve</i>"
# The phone's clock an hour fast: the course card must time the run from the server's clock.
FAST_CLOCK = "(() => { const real = Date.now.bind(Date); Date.now = () => real() + 3600000; })();"


class CourseSession(Session):
    """A hunt server on this test's course hunt, with every cache's code."""

    def __init__(self):
        super().__init__(hunt=COURSES_HUNT, name="courses")

    def printed(self, label):
        for _ in range(50):
            found = re.search(re.escape(label) + r" (\S+)", open(self.log.name).read())
            if found:
                return found.group(1)
            time.sleep(0.1)
        raise RuntimeError(f"geoqr serve printed no {label}")


def iso(moment):
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def punch(session, token, cache, at):
    """A claim of `cache`'s code at its coordinates, scanned at `at`, as the phone's outbox sends it."""
    lat, lon, _ = CACHES[cache]
    answer = api(session, "POST", "/api/claims", {"code": session.codes[cache], "latitude": lat, "longitude": lon,
                                                  "accuracy": 5, "method": "link", "scannedAt": iso(at)}, token=token)
    assert answer["verdict"] == "claimable", f"{cache}: {answer['verdict']} {answer.get('sentence')}"
    return answer


def phone_punch(driver, session, cache, at):
    """A punch sent from the runner's own phone, as its outbox sends a claim kept with no
    network: the code, where the phone was, and when it was scanned."""
    lat, lon, _ = CACHES[cache]
    body = {"code": session.codes[cache], "latitude": lat, "longitude": lon, "accuracy": 5, "method": "link",
            "scannedAt": iso(at)}
    answer = driver.execute_async_script("""
        const [body, done] = [arguments[0], arguments[arguments.length - 1]];
        fetch("/api/claims", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json",
          Authorization: "Bearer " + localStorage.getItem("geoqr.token") } })
          .then(r => r.json()).then(done, e => done({ verdict: "network", sentence: String(e) }));""", body)
    assert answer["verdict"] == "claimable", f"{cache}: {answer['verdict']} {answer.get('sentence')}"
    return answer


def seconds(clock):
    parts = [int(p) for p in clock.split(":")]
    return parts[0] * 3600 + parts[1] * 60 + parts[2] if len(parts) == 3 else parts[0] * 60 + parts[1]


def shoot(driver, path, css=None):
    """A PNG of the page, or of the element `css` names, whole even where it runs past the window
    (the news toasts taken away first: they would hide what the picture is for)."""
    driver.execute_script("document.getElementById('toasts')?.replaceChildren()")
    if css is None:
        driver.save_screenshot(path)
        return path
    box = driver.execute_script("const e = document.querySelector(arguments[0]); e.scrollIntoView();"
                                "const r = e.getBoundingClientRect();"
                                "return [r.left + scrollX, r.top + scrollY, r.width, r.height, r.height > innerHeight];", css)
    # Capturing beyond the window lays the page out again (no scroll bar): only when it must.
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": box[4],
        "clip": {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    return path


def violations(driver, context=None):
    """Every axe-core violation (any impact) on the page, or in the part `context` names."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in axe.run(context)["violations"]]


def big_screen(session, lang="en-GB"):
    driver = browser(session, CACHES["F1"][:2], lang=lang, size=(1920, 1080))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    return driver


def run():
    session = CourseSession()
    shots = os.environ.get("GEOQR_SCREENSHOTS") or SHOTS
    os.makedirs(shots, exist_ok=True)
    print(f"screenshots in {shots}")
    drivers, tokens, ids, check = {}, {}, {}, Checks()
    B = datetime.now(timezone.utc)
    state = {}
    try:
        admin_link = session.admin_link()
        admin = re.search(r"#token=(\w+)", admin_link).group(1)
        board_link = session.printed("big screen (standings only):")
        board_token = re.search(r"#board=(\w+)", board_link).group(1)
        gm = drivers["gm"] = browser(session, CACHES["F1"][:2], size=(1400, 1000))
        ana = drivers["ana"] = browser(session, CACHES["F1"][:2])
        ben = drivers["ben"] = browser(session, CACHES["F1"][:2])
        cy = drivers["cy"] = browser(session, CACHES["F1"][:2])
        lia = drivers["lia"] = browser(session, CACHES["F1"][:2], script=FAST_CLOCK)
        phones = {"Ana": ana, "Ben": ben, "Cy": cy, "Lia": lia}

        def runners_join():
            for name, team in (("Ana", "Foxes"), ("Ben", "Owls"), ("Cy", None), ("Lia", "Foxes")):
                join(phones[name], name, team=team)
                tokens[name] = phones[name].execute_script("return localStorage.getItem('geoqr.token')")
            # Cy's phone finds no satellites under the trees: it tells no position, only his punch.
            move(cy, None)
            for name, team in (("Leo", "Owls"), (WATCHER, None)):
                body = {"name": name, "pin": "4321", **({"team": team} if team else {})}
                tokens[name] = api(session, "POST", "/api/join", body)["token"]
            ids.update({p["name"]: p["id"] for p in api(session, "GET", "/api/players")["players"]})
            assert set(ids) >= {"Ana", "Ben", "Cy", "Lia", "Leo"}, ids
        check("five runners join (four on phones in Chromium, one through the API) and a watcher", runners_join)

        def card_before_a_start():
            wait(ana, lambda d: "Mass start: waiting for the game master." in text(d, "#course li[data-course=SCORE]"),
                 what="the score course waiting for its mass start")
            line = text(ana, "#course li[data-course=YELLOW]")
            assert "Punch S1 (Start: park gate) to start your clock." in line, line
            assert "line course · 4 controls · 60 min limit" in line, line
            assert "Finish: punch F1 (Finish: café terrace)." in line, line
            score = text(ana, "#course li[data-course=SCORE]")
            assert "score course · 6 controls · 1 min limit · 10 points off a minute started over" in score, score
            shoot(ana, os.path.join(shots, "phone-card-before-start.png"))
        check("before a start, the phone's card lists each course and how it starts", card_before_a_start)

        def mass_start_from_the_control_room():
            gm.get(admin_link)
            wait(gm, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-mass-start=SCORE]"), what="the mass start button")
            assert not gm.find_elements(By.CSS_SELECTOR, "button[data-mass-start=YELLOW]"), "a course with a start code has no mass start"
            assert "Starts when each runner punches S1 (Start: park gate)." in text(gm, "section[data-course=YELLOW]")
            click(gm, "button[data-mass-start=SCORE]")
            alert = WebDriverWait(gm, 5).until(expected_conditions.alert_is_present())
            assert "Score sprint" in alert.text, alert.text
            alert.accept()
            wait(gm, lambda d: "Mass start given at" in text(d, "section[data-course=SCORE] .mass-started"), what="the mass start's time")
            assert not gm.find_elements(By.CSS_SELECTOR, "button[data-mass-start=SCORE]"), "the button is gone once the start is given"
            started = api(session, "GET", "/api/admin/courses", token=admin)["board"]["massStarts"]["SCORE"]
            state["T0"] = datetime.fromisoformat(started.replace("Z", "+00:00"))
            # The phone hears the start on its live stream, without a reload.
            wait(ana, lambda d: "Mass start given at" in text(d, "#course li[data-course=SCORE]"), what="the start on Ana's phone")
            wait(ana, lambda d: re.search(r"Running time \d+:\d\d", text(d, "#course li[data-course=SCORE]")), what="its clock")
        check("the game master gives the mass start with the control room's button; the phone hears it", mass_start_from_the_control_room)

        def line_runner_on_course():
            for cache, at in LINE["Lia"][:2]:
                phone_punch(lia, session, cache, B + timedelta(seconds=at))
            wait(lia, lambda d: "K2 Lake bridge" in text(d, "#course .next"), what="Lia's next control after her punches")
            card = " ".join(text(lia, "#course").split())
            assert "Yellow (line)" in card and "K1 Bandstand 5:00 leg 5:00" in card, card
            first = text(lia, "#course .course-clock")
            expected = (datetime.now(timezone.utc) - B).total_seconds() + 2400
            # 40 min and a little: not 1:40:00, which the phone's own (fast) clock would say.
            assert abs(seconds(first) - expected) < 5, (first, expected)
            time.sleep(3.5)   # a tick each second, so at least 2.5 s more on the clock
            second = text(lia, "#course .course-clock")
            assert seconds(second) - seconds(first) >= 2, ("the running time ticks", first, second)
            shoot(lia, os.path.join(shots, "phone-card-running.png"))
            shoot(lia, os.path.join(shots, "phone-card-running-card.png"), "#course")
            found = violations(lia, "#course")
            assert not found, found
        check("a line runner's card shows the course, the next control and a running time by the server's clock",
              line_runner_on_course)

        def line_course_run():
            for cache, at in LINE["Lia"][2:]:
                phone_punch(lia, session, cache, B + timedelta(seconds=at))
            for cache, at in LINE["Leo"]:
                punch(session, tokens["Leo"], cache, B + timedelta(seconds=at))
            wait(lia, lambda d: "OK · Time 20:00" in text(d, "#course .result"), what="Lia's finished card")
            shoot(lia, os.path.join(shots, "phone-card-finished-line.png"), "#course")
        check("Lia runs the line course clean, Leo skips K2", line_course_run)

        def bad_board_links():
            screen = drivers["screen-bad"] = big_screen(session)
            screen.get(session.base + "/board.html#board=00000000000000000000000000000000")
            wait(screen, lambda d: text(d, "#board-error"), what="the refusal")
            assert text(screen, "#board-error") == "This board link is not valid: ask the game master for the big-screen link."
            assert "board=" not in screen.current_url, "the token leaves the address bar"
            assert not screen.find_element(By.ID, "panel").is_displayed()
            screen.execute_script("sessionStorage.clear()")
            screen.get(session.base + "/board.html")
            wait(screen, lambda d: "not valid" in text(d, "#board-error"), what="the refusal without a token")
            shoot(screen, os.path.join(shots, "board-bad-link.png"))
            assert not violations(screen), violations(screen)
        check("a bad or missing board token shows one clear line", bad_board_links)

        def score_course_run():
            # A claim scanned under a minute ago counts as scanned now: wait until the last
            # score punch (75 s after the start) is more than a minute old.
            T0 = state["T0"]
            ready_at = T0 + timedelta(seconds=75 + 65)
            time.sleep(max(0, (ready_at - datetime.now(timezone.utc)).total_seconds()))
            # The start's time is kept to the millisecond but told to the second: Cy's punch,
            # 30.999 s after the second told, shows the millisecond (its split floors to 0:30
            # whatever it is); the others are then timed from the start itself.
            phone_punch(cy, session, "K3", T0 + timedelta(seconds=30.999))
            run = next(l["run"] for c in api(session, "GET", "/api/admin/courses", token=admin)["board"]["courses"]
                       for l in c["lines"] if l["run"]["player"] == ids["Cy"])
            start = T0 + timedelta(milliseconds=round((30.999 - run["splits"][0]["time"]) * 1000))
            # Ana's first punch: out on the course, past its minute, her card warns of the penalty.
            cache, at = SCORE["Ana"][0]
            phone_punch(ana, session, cache, start + timedelta(seconds=at))
            wait(ana, lambda d: d.find_element(By.CSS_SELECTOR, "#course .over").is_displayed(), what="the over-time warning")
            over = text(ana, "#course .over")
            assert re.fullmatch(r"⚠ Over time by \d+:\d\d: each minute started costs 10 points\.", over), over
            assert text(ana, "#course .tally") == "Points so far 10", text(ana, "#course .tally")
            assert not ana.find_element(By.CSS_SELECTOR, "#course .left").is_displayed(), "no time left once over"
            shoot(ana, os.path.join(shots, "phone-card-score-over.png"), "#course")
            for name, punches in (("Ana", SCORE["Ana"][1:]), ("Ben", SCORE["Ben"])):
                for cache, at in punches:
                    phone_punch(phones[name], session, cache, start + timedelta(seconds=at))
            wait(ana, lambda d: "OK · Time 0:50 · Score 40" in text(d, "#course .result"), what="Ana's finished card")
            shoot(ana, os.path.join(shots, "phone-card-finished-score.png"), "#course")
            # Ben's phone: back, but over time, his penalty taken off.
            wait(ben, lambda d: "Over time · Time 1:15 · Score 80" in text(d, "#course .result"), what="Ben's over-time card")
            shoot(ben, os.path.join(shots, "phone-card-over-time.png"), "#course")
            # Cy's phone: still running, 20 points so far.
            wait(cy, lambda d: text(d, "#course .tally") == "Points so far 20", what="Cy's tally")
        check("the score course, three phones: Ana back in time, Ben over time, Cy out", score_course_run)

        def still_out():
            # Ana and Ben are back (the list follows the claims' news, or its 15 s refresh).
            wait(gm, lambda d: [r.get_attribute("data-player") for r in d.find_elements(By.CSS_SELECTOR, "#still-out tr[data-player]")]
                 == [ids["Cy"]], seconds=20, what="Cy alone still out")
            row = text(gm, f"#still-out tr[data-player={ids['Cy']}]")
            assert "Cy" in row and "Score sprint" in row and "overdue" in row, row
            la, lo, _ = CACHES["K3"]
            assert f"{la:.5f}, {lo:.5f}" in row, row
            assert gm.find_element(By.CSS_SELECTOR, f"#still-out tr[data-player={ids['Cy']}]").get_attribute("data-overdue") == "true"
            assert "overdue after 1 min" in text(gm, "#still-out-note"), text(gm, "#still-out-note")
            shoot(gm, os.path.join(shots, "control-room-still-out.png"), "#courses-section")
        check("the still-out list shows Cy overdue, where he was last seen", still_out)

        def hunt_stops():
            click(gm, "#stop")
            wait(gm, lambda d: "Did not finish" in text(d, f"section[data-course=SCORE] tr[data-player={ids['Cy']}]"), seconds=20,
                 what="Cy did not finish")
            # A runner who never came back is still out after the hunt, until someone finds them.
            assert "Cy" in text(gm, "#still-out"), text(gm, "#still-out")
            # His phone says so too, from the news of the stop.
            wait(cy, lambda d: "Did not finish" in text(d, "#course .result"), seconds=20, what="Cy's phone: did not finish")
            shoot(cy, os.path.join(shots, "phone-card-did-not-finish.png"), "#course")
        check("the game master stops the hunt: Cy did not finish", hunt_stops)

        def split_tables():
            gm.refresh()
            wait(gm, lambda d: len(d.find_elements(By.CSS_SELECTOR, "table.splits tbody tr")) == 5, what="five runners in the tables")
            for course, runners in EXPECTED.items():
                rows = gm.find_elements(By.CSS_SELECTOR, f"section[data-course={course}] tbody tr")
                order = [r.find_element(By.CSS_SELECTOR, "th").text for r in rows]
                assert order == list(runners), (course, order)
                for name, want in runners.items():
                    row = f"section[data-course={course}] tr[data-player={ids[name]}]"
                    cells = gm.find_elements(By.CSS_SELECTOR, row + " td")
                    assert cells[0].text == want["rank"], (name, "rank", cells[0].text)
                    assert text(gm, row + " td.status") == want["status"], (name, text(gm, row + " td.status"))
                    assert text(gm, row + " td.time") == want["time"], (name, text(gm, row + " td.time"))
                    for field in ("points", "penalty", "score"):
                        if field in want:
                            assert text(gm, f"{row} td[data-field={field}]") == want[field], (name, field, text(gm, f"{row} td[data-field={field}]"))
                    for control, split in want["splits"].items():
                        cell = text(gm, f"{row} td[data-control={control}]")
                        assert cell == ("—" if split is None else "\n".join(split)), (name, control, cell)
            assert "−10" in text(gm, f"section[data-course=SCORE] tr[data-player={ids['Ben']}]")
            gm.execute_script("document.getElementById('courses-section').scrollIntoView()")
            shoot(gm, os.path.join(shots, "control-room-courses.png"), "#courses-section")
            found = violations(gm, "#courses-section")
            assert not found, found
        check("the control room's split tables show the statuses, times, scores and splits worked out by hand", split_tables)

        def the_big_screen():
            screen = drivers["screen"] = big_screen(session)
            screen.get(board_link)
            wait(screen, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel table"), what="the first panel")
            assert "board=" not in screen.current_url, "the token leaves the address bar"
            assert text(screen, "#hunt-name") == "Park-O test morning"
            body = float(screen.execute_script("return parseFloat(getComputedStyle(document.querySelector('#panel td')).fontSize)"))
            assert body >= 28, f"table text is {body}px on 1920×1080"
            answer = api(session, "GET", "/api/board", token=board_token)
            panels = {}
            for _ in range(len(screen.find_elements(By.CSS_SELECTOR, "#steps li"))):
                step = screen.find_element(By.ID, "panel").get_attribute("data-step")
                panels[step] = text(screen, "#panel")
                assert not screen.find_elements(By.CSS_SELECTOR, "#panel i"), "no player's name becomes markup"
                shoot(screen, os.path.join(shots, "board-" + step.replace("/", "-") + ".png"))
                found = violations(screen)
                assert not found, (step, found)
                screen.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
                wait(screen, lambda d: d.find_element(By.ID, "panel").get_attribute("data-step") != step, what="the next panel")
            assert list(panels) == ["standings/0", "teams/0", "latest", "course-YELLOW/0", "course-SCORE/0"], list(panels)
            standings = panels["standings/0"].splitlines()
            for s in answer["standings"]:
                assert any(l.startswith(f"{s['rank']} {s['name']}") and l.endswith(f"{s['points']} {s['finds']}") for l in standings), (s, standings)
            assert WATCHER in panels["standings/0"], "a name that is markup shows as text"
            teams = panels["teams/0"].splitlines()
            for s in answer["teams"]:
                # Each team's line starts with its rank, the API's (teams level share one).
                assert any(l.startswith(f"{s['rank']} {s['team']} ") and l.endswith(f"{s['points']} {s['finds']}") for l in teams), (s, teams)
            assert {s["team"] for s in answer["teams"]} == {"Foxes", "Owls"}, answer["teams"]
            assert "Ben Owls found Finish: café terrace" in " ".join(panels["latest"].split()), panels["latest"]
            yellow = panels["course-YELLOW/0"].splitlines()
            assert "1 Lia Foxes OK 20:00 5:00 8:20 15:00 18:20" in yellow, yellow
            assert "Leo Owls Mispunch 17:00 5:00 — 12:00 14:00" in yellow, yellow
            score = panels["course-SCORE/0"].splitlines()
            assert "1 Ben Owls Over time 1:15 80 −10 — 0:15 — 0:40 — 0:55" in score, score
            assert "2 Ana Foxes OK 0:50 40 0 0:10 — — — 0:25 —" in score, score
            assert "Cy Did not finish — 20 0 — — 0:30 — — —" in score, score
        check("the big screen shows the standings, teams, latest finds and each course's results and splits", the_big_screen)

        def the_big_screen_cycles_itself():
            screen = drivers["screen"]
            before = screen.find_element(By.ID, "panel").get_attribute("data-step")
            wait(screen, lambda d: d.find_element(By.ID, "panel").get_attribute("data-step") != before, seconds=16,
                 what="the next panel by itself")
            current = screen.find_elements(By.CSS_SELECTOR, "#steps li[aria-current=step]")
            assert len(current) == 1, "one step of the cycle is marked"
        check("the big screen moves to the next panel by itself", the_big_screen_cycles_itself)

        def the_big_screen_in_portuguese():
            screen = drivers["screen-pt"] = big_screen(session, lang="pt-PT")
            screen.get(board_link)
            wait(screen, lambda d: "Classificação" in text(d, "#panel-title"), what="the standings in Portuguese")
            for _ in range(3):
                screen.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
            wait(screen, lambda d: "Picagem em falta" in text(d, "#panel"), what="a mispunch in Portuguese")
        check("the big screen speaks Portuguese", the_big_screen_in_portuguese)

        def disqualify():
            row = f"section[data-course=YELLOW] tr[data-player={ids['Leo']}]"
            click(gm, row + " button[data-disqualify]")
            prompt = WebDriverWait(gm, 5).until(expected_conditions.alert_is_present())
            assert "Leo" in prompt.text, prompt.text
            prompt.send_keys("cut through the rose garden")
            prompt.accept()
            wait(gm, lambda d: text(d, row + " td.status") == "Disqualified", what="Leo disqualified")
            assert "Leo is disqualified." in text(gm, "#admin-note")
            assert not gm.find_elements(By.CSS_SELECTOR, row + " button[data-disqualify]")
        check("the game master disqualifies a runner with a reason", disqualify)
    finally:
        for name, d in drivers.items():
            try:
                d.quit()
            except Exception:
                pass
        session.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(run())
