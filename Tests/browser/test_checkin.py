"""The phone check at the briefing (/checkin.html), in real headless Chromium, and what the
game master sees of it.

A player joins, follows "Check my phone" from the app and runs the check: on http://localhost
(a secure context) with a fake rear camera and a DevTools location good to 5 m, the secure
page, the camera (a live frame), the location (its accuracy) and offline play pass; each part
says in one line what it found. The control room, opened from the printed admin link, lists the
player's phone. A player with no camera and a location good only to 300 m is told what to fix,
and the control room says what. axe-core finds no serious or critical violation on the page.
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
from browser_support import *


def run():
    session = Session()

    def checks(check, drivers):
        ada = drivers["ada"] = browser(session, A1, camera=True)
        gm = drivers["gm"] = browser(session, C1, size=(1280, 1000))

        def a_ready_phone():
            join(ada, "Ada")
            tab(ada, "scan")
            ada.find_element(By.CSS_SELECTOR, "#tab-scan a[href='/checkin.html']").click()
            wait(ada, lambda d: d.find_element(By.ID, "checkin-start").text == "Check my phone", what="the check-in page")
            ada.find_element(By.ID, "checkin-start").click()
            wait(ada, lambda d: text(d, "#checkin-summary") and "Checking" not in text(d, "#checkin-summary"), seconds=40,
                 what="the check's summary")
            rows = {li.get_attribute("data-check"): li for li in ada.find_elements(By.CSS_SELECTOR, "#checks li")}
            for part in ("secure", "camera", "location", "offline"):
                assert rows[part].get_attribute("data-ok") == "yes", f"{part}: {rows[part].text}"
            assert "5 m" in rows["location"].text, rows["location"].text
            assert rows["wakeLock"].get_attribute("data-ok") in ("yes", "no") and rows["wakeLock"].text.strip(), rows["wakeLock"].text
            ada.save_screenshot(os.path.join(SHOTS, "phone-checkin.png"))
            problems = serious_violations(ada)
            assert not problems, "\n".join(problems)
        check("a phone with a camera and a good fix passes the check, one line per part", a_ready_phone)

        def the_control_room_lists_it():
            gm.get(session.admin_link())
            wait(gm, lambda d: "Phones checked" in text(d, "#players li[data-player]"), what="Ada's phone in the control room")
            assert "· 1 player ·" in text(gm, "#status"), "one player, not one players: " + text(gm, "#status")
        check("the control room lists each player's phone check", the_control_room_lists_it)

        def a_phone_to_fix():
            bo = drivers["bo"] = browser(session, B1)   # no fake camera device
            move(bo, B1, accuracy=300)
            join(bo, "Bo")
            bo.get(session.base + "/checkin.html")
            wait(bo, lambda d: d.find_element(By.ID, "checkin-start").text, what="the check-in page")
            bo.find_element(By.ID, "checkin-start").click()
            wait(bo, lambda d: "Fix what is marked" in text(d, "#checkin-summary"), seconds=40, what="the summary asks for fixes")
            location = bo.find_element(By.CSS_SELECTOR, "#checks li[data-check=location]")
            assert location.get_attribute("data-ok") == "no" and "300 m" in location.text and "outdoors" in location.text, location.text
            def bos_phone(d):
                rows = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#players li[data-player]") if li.text.startswith("Bo")]
                return rows and "to fix:" in rows[0] and "Location" in rows[0] and "Camera" in rows[0]
            wait(gm, bos_phone, what="Bo's phone to fix (camera, location), in the control room")
            gm.save_screenshot(os.path.join(SHOTS, "control-room-readiness.png"))
        check("a phone with a poor fix is told what to fix, and so is the game master", a_phone_to_fix)

    code = run_checks(session, checks)
    return code


if __name__ == "__main__":
    sys.exit(run())
