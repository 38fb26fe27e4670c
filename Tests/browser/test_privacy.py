"""The join screen's promise on privacy, in real headless Chromium on a phone-size window: how
long positions are kept after the hunt ends (the hunt file's positionRetentionHours, read from
GET /api/hunt) and that the game master forgets a player who asks, in English and Portuguese,
as text that fits the screen. Prints 'N passed, N failed' and exits non-zero on any failure.
"""
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


if __name__ == "__main__":
    sys.exit(run())
