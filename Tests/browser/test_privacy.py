"""The join screen's promise on privacy, in real headless Chromium on a phone-size window: how
long positions are kept after the hunt ends (the hunt file's positionRetentionHours, read from
GET /api/hunt) and that the game master forgets a player who asks, in English and Portuguese,
as text that fits the screen; then the game master forgets a player with the control room's
button, from the link `geoqr serve` printed. Prints 'N passed, N failed' and exits non-zero on
any failure.
"""
from selenium.webdriver.support import expected_conditions
from browser_support import *

HUNT["positionRetentionHours"] = 36


def join_screen(session, drivers, lang):
    """A phone of 360 × 800 on the join screen, once the hunt's words are in."""
    phone = drivers[lang] = browser(session, A1, lang=lang)
    # Headless Chromium keeps a window at least 500 px wide: the phone's width is emulated.
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    phone.get(session.base + "/")
    wait(phone, lambda d: "36" in text(d, "#retention"), what=f"the retention words on the join screen ({lang})")
    return phone


def run():
    session = Session()
    print("screenshots:", SHOTS)
    return run_checks(session, lambda check, drivers: checks(session, check, drivers))


def checks(session, check, drivers):
    def english():
        ada = join_screen(session, drivers, "en-GB")
        words = text(ada, "#retention")
        assert "kept until 36 hours after the hunt ends, then deleted" in words, words
        assert "Ask the game master to forget you at any time" in words, words
        assert ada.execute_script("return window.innerWidth") == 360
        assert ada.execute_script("return document.documentElement.scrollWidth") <= 360, "the join screen is wider than the phone"
        box = ada.find_element(By.ID, "retention").rect
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        ada.save_screenshot(os.path.join(SHOTS, "join-privacy-en.png"))
    check("the join screen says how long positions are kept and that a player can be forgotten", english)

    def portuguese():
        cy = join_screen(session, drivers, "pt-PT")
        words = text(cy, "#retention")
        assert "guardada até 36 horas depois do fim da caça" in words and "esqueça" in words, words
        cy.save_screenshot(os.path.join(SHOTS, "join-privacy-pt.png"))
    check("and in Portuguese", portuguese)

    def forget_from_the_control_room():
        eve = api(session, "POST", "/api/join", {"name": "Eve Marques", "pin": "4321"})
        gm = drivers["gm"] = browser(session, A1, size=(1280, 900))
        gm.get(session.admin_link())
        row = f"li[data-player={eve['player']['id']}]"
        wait(gm, lambda d: "Eve Marques" in text(d, row), what="Eve in the control room's players")
        click(gm, row + " button[data-forget]")
        ask = WebDriverWait(gm, 5).until(expected_conditions.alert_is_present())
        assert "Forget Eve Marques for good?" in ask.text, ask.text
        ask.accept()
        wait(gm, lambda d: text(d, "#admin-note") == "Eve Marques is forgotten.", what="the note")
        wait(gm, lambda d: "Forgotten player 1" in text(d, row), what="the pseudonym in the players list")
        # Once the page is loaded again, the name is nowhere in the control room.
        gm.refresh()
        wait(gm, lambda d: "Forgotten player 1" in text(d, row), what="the pseudonym after a reload")
        assert "Eve Marques" not in gm.find_element(By.TAG_NAME, "body").text
        names = [p["name"] for p in api(session, "GET", "/api/players")["players"]]
        assert "Eve Marques" not in names and "Forgotten player 1" in names, names
        try:
            api(session, "POST", "/api/signin", {"name": "Eve Marques", "pin": "4321"})
            raise AssertionError("a forgotten player signed in")
        except urllib.error.HTTPError as refused:
            assert refused.code in (401, 404), refused.code
        gm.find_element(By.ID, "players").screenshot(os.path.join(SHOTS, "control-room-forgotten.png"))
    check("the game master forgets a player with the control room's button", forget_from_the_control_room)


if __name__ == "__main__":
    sys.exit(run())
