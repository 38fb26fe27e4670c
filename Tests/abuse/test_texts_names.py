"""Issue 24 §2 and §5 against a real `geoqr serve`: every byte a player can make the ledger keep
is bounded, and names cannot pass for another player or for a player id.

    GEOQR_BIN=.build/debug/geoqr python3 Tests/abuse/test_texts_names.py
"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse_support import Server, run


def refused(answer, status, code):
    assert answer.status == status, answer
    assert answer.json and answer.json.get("error") == code, answer
    return answer.json


def test_eighteen_megabytes_of_combining_accents_are_refused_and_leave_nothing():
    """The issue's report: "x" + 9,000 combining accents, 1,000 times (18 MB, "1,000 characters")."""
    with Server() as server:
        ada = server.join("Ada")
        before = server.data_bytes()
        text = ("x" + "\u0301" * 9000) * 1000
        # Sent as UTF-8 (18 MB, under the 20 MB a report with a photo may be), the text itself
        # is refused; sent with \u escapes (54 MB), the body is.
        raw = json.dumps({"cache": "A1", "kind": "unreadable", "text": text}, ensure_ascii=False).encode()
        assert 18_000_000 < len(raw) < 20 * 1024 * 1024, len(raw)
        answer = server.call("POST", "/api/reports", raw, token=ada.token, content_type="application/json", timeout=120)
        body = refused(answer, 413, "text-too-large")
        assert "4096 bytes" in body["message"], body
        answer = server.call("POST", "/api/reports", {"cache": "A1", "kind": "unreadable", "text": text},
                             token=ada.token, timeout=120)
        assert answer.status == 413 and answer.json.get("error") == "too-large", answer
        # One "character" of 2,000 marks fits in the bytes and is refused for its marks.
        answer = server.call("POST", "/api/reports", {"cache": "A1", "kind": "unreadable", "text": "x" + "\u0301" * 2000},
                             token=ada.token)
        refused(answer, 422, "text-too-many-marks")
        grown = server.data_bytes() - before
        assert grown < 64 * 1024, f"the data folder grew by {grown} bytes"
        overview = server.admin("GET", "overview")
        assert overview.status == 200 and overview.json["reports"] == [], overview
        assert len(overview.raw) < 64 * 1024, len(overview.raw)
        assert "\u0301\u0301" not in server.ledger_export("--private")


def test_one_players_reports_are_capped_in_the_overview():
    """My attack for §2: a player files report after report of the largest allowed text; the
    rate limit answers 429 first, and the open-report quota bounds what the control room
    fetches however slowly they are sent."""
    with Server() as server:
        ada = server.join("Ada")
        text = "ã" * 1000   # 2,000 bytes: within the caps
        statuses = [server.call("POST", "/api/reports", {"cache": "B1", "kind": "damaged", "text": text},
                                token=ada.token).status for _ in range(8)]
        assert statuses[0] == 201 and 429 in statuses, statuses
        last = server.call("POST", "/api/reports", {"cache": "B1", "kind": "damaged", "text": text}, token=ada.token)
        assert last.status == 429 and int(last.headers["retry-after"]) > 0, last
        overview = server.admin("GET", "overview")
        mine = [r for r in overview.json["reports"] if r["player"] == ada.id]
        assert 1 <= len(mine) <= 20, len(mine)
        assert len(overview.raw) < 20 * 4096 + 16 * 1024, len(overview.raw)


def test_position_flooding_is_answered_429():
    with Server() as server:
        ada = server.join("Ada")
        statuses = []
        for _ in range(40):
            statuses.append(server.call("POST", "/api/me/position",
                                        {"latitude": 40.63, "longitude": -8.657, "accuracy": 5}, token=ada.token).status)
        assert statuses[0] == 200 and statuses.count(429) >= 15, statuses
        answer = server.call("POST", "/api/me/position", {"latitude": 40.63, "longitude": -8.657, "accuracy": 5}, token=ada.token)
        refused(answer, 429, "rate-limited")
        assert int(answer.headers["retry-after"]) >= 1
        # Another player walks on undisturbed.
        bo = server.join("Bo")
        assert server.call("POST", "/api/me/position", {"latitude": 40.63, "longitude": -8.657}, token=bo.token).status == 200


def test_trade_flooding_is_answered_429():
    with Server() as server:
        server.start_hunt()
        ada, bo = server.join("Ada"), server.join("Bo")
        statuses = [server.call("POST", "/api/trades", {"to": bo.id, "give": ["A1"]}, token=ada.token).status
                    for _ in range(30)]
        assert 429 in statuses, statuses
        assert all(s in (404, 409, 422, 403, 429) for s in statuses), statuses


def test_confusable_and_invisible_names_are_refused():
    with Server() as server:
        server.join("Ada")
        body = refused(server.call("POST", "/api/join", {"name": "\u0410da", "pin": "4321"}), 409, "name-confusable")
        assert "looks the same as the player Ada" in body["message"], body
        refused(server.call("POST", "/api/join", {"name": "A\u200bda", "pin": "4321"}), 422, "name-invisible-characters")
        refused(server.call("POST", "/api/join", {"name": "\u202eadA", "pin": "4321"}), 422, "name-invisible-characters")
        # Portuguese for a phone that asks for it.
        answer = server.call("POST", "/api/join", {"name": "\u0410da", "pin": "4321"}, headers={"Accept-Language": "pt-PT"})
        assert "parece igual ao do jogador Ada" in answer.json["message"], answer
        players = server.admin("GET", "overview").json["players"]
        assert [p["name"] for p in players] == ["Ada"], players
        # Ordinary names of many scripts join.
        for name in ["João", "Ελένη", "さくら", "प्रियंका", "👨\u200d👩\u200d👧\u200d👦"]:
            server.join(name)


def test_a_name_shaped_like_a_player_id_is_refused_and_ids_are_not_names():
    with Server() as server:
        ada = server.join("Ada")
        refused(server.call("POST", "/api/join", {"name": "P160", "pin": "4321"}), 422, "name-like-player-id")
        refused(server.call("POST", "/api/join", {"name": ada.id.lower(), "pin": "4321"}), 422, "name-like-player-id")
        refused(server.call("POST", "/api/join", {"name": "\uff30\uff11\uff16\uff10", "pin": "4321"}), 422, "name-like-player-id")
        # Sign-in by id and by name both reach Ada; a made-up id reaches nobody.
        assert server.call("POST", "/api/signin", {"name": ada.id, "pin": "4321"}).json["player"]["id"] == ada.id
        assert server.call("POST", "/api/signin", {"name": "ADA", "pin": "4321"}).json["player"]["id"] == ada.id
        assert server.call("POST", "/api/signin", {"name": "P99999", "pin": "4321"}).status == 404


def test_names_that_dodge_the_id_rule_by_lookalikes():
    """My attack for §5: `Р160` with a Cyrillic Р, and `Ρ160` with a Greek Rho, look like an id
    but are not `P` and digits; their skeleton is, and they are refused. A lookalike of Ada in
    mixed case and a fullwidth Ada are refused too."""
    with Server() as server:
        server.join("Ada")
        for name in ["\u0420160", "\u03a1160"]:
            refused(server.call("POST", "/api/join", {"name": name, "pin": "4321"}), 422, "name-like-player-id")
        refused(server.call("POST", "/api/join", {"name": "\u0430DA", "pin": "4321"}), 409, "name-confusable")
        refused(server.call("POST", "/api/join", {"name": "\uff21\uff44\uff41", "pin": "4321"}), 409, "name-taken")
        # A zalgo name is refused for its marks, a long one for its bytes.
        refused(server.call("POST", "/api/join", {"name": "Z" + "\u0336" * 6, "pin": "4321"}), 422, "text-too-many-marks")
        refused(server.call("POST", "/api/join", {"name": "a\u0301" * 200, "pin": "4321"}), 413, "text-too-large")
        refused(server.call("POST", "/api/join", {"name": "Bo", "pin": "4321", "team": "Fo\u200bxes"}), 422, "bad-team")


run(globals())
