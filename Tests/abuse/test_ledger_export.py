"""Issue 24 §7 against a real `geoqr serve`: the ledger one publishes (the control room's
download and `geoqr ledger export`) holds no position a player stood at, no report text, no
address and no PIN history, and anyone can still recompute every hash of it with
scripts/verify-ledger-export.py (Python alone) or `geoqr ledger verify FILE`.

    GEOQR_BIN=.build/debug/geoqr python3 Tests/abuse/test_ledger_export.py
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse_support import GEOQR, Server, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "scripts", "verify-ledger-export.py")

NEAR_A1 = (40.630317, -8.657521)      # a find, a few metres from A1
FAR_FROM_B1 = (40.611113, -8.699987)  # a refused claim, kilometres from B1
WALKING = (40.622229, -8.688883)      # a position the phone sent while walking
REPORT = "Lid cracked under the oak, 5521"
SECRETS = ["40.630317", "8.657521", "40.611113", "8.699987", "40.622229", "8.688883", REPORT,
           "127.0.0.1", "pin-checked", "pin-reset", "failures", "lockedUntil"]


def outsider(path):
    """scripts/verify-ledger-export.py's exit status and JSON report."""
    out = subprocess.run([sys.executable, TOOL, "--json", path], capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout or "{}")


def geoqr_verify(path):
    return subprocess.run([GEOQR, "ledger", "verify", path], capture_output=True, text=True)


def played(server):
    """Two players: a find, a refused claim far away, a walk, a report with text, wrong PINs."""
    server.start_hunt()
    ada, bob = server.join("Ada"), server.join("Bob")
    answer = server.claim(ada, "A1", where=NEAR_A1)
    assert answer.status < 300 and answer.json.get("verdict") == "claimable", answer
    answer = server.claim(bob, "B1", where=FAR_FROM_B1)
    assert answer.json and answer.json.get("verdict") == "too-far", answer
    server.call("POST", "/api/me/position", {"latitude": WALKING[0], "longitude": WALKING[1], "accuracy": 5},
                token=bob.token)
    answer = server.call("POST", "/api/reports", {"cache": "A1", "kind": "damaged", "text": REPORT}, token=ada.token)
    assert answer.status == 201, answer
    for _ in range(2):
        answer = server.call("POST", "/api/signin", {"name": "Bob", "pin": "0000"})
        assert answer.status >= 400, answer
    answer = server.call("POST", "/api/signin", {"name": "Bob", "pin": bob.pin})
    assert answer.status < 300, answer
    return ada, bob


def write(server, name, text):
    path = os.path.join(server.dir, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def check_published(server, name, text):
    for secret in SECRETS:
        assert secret not in text, f"{name} holds {secret!r}"
    path = write(server, name, text)
    status, report = outsider(path)
    assert status == 0 and report["firstBadSeq"] is None, report
    assert report["withheld"] >= 1, f"no PIN event was withheld in {name}: {report}"
    assert report["linkedOnly"] == 0, report
    assert report["recomputed"] + report["withheld"] == report["events"], report
    verify = geoqr_verify(path)
    assert verify.returncode == 0 and "export intact" in verify.stdout, verify
    return path, report


def test_the_published_ledger_holds_no_position_report_text_address_or_pin_history():
    """The issue's row: `geoqr ledger export` carried where each player stood, refused claims
    too, report texts and PIN-check history. Now neither it nor the control room's download does."""
    with Server() as server:
        played(server)
        download = server.admin("GET", "ledger")
        assert download.status == 200, download
        _, from_room = check_published(server, "room.jsonl", download.raw.decode())
        _, from_cli = check_published(server, "cli.jsonl", server.ledger_export())
        assert from_room["headHash"] == from_cli["headHash"], (from_room, from_cli)
        # The game master's export holds it all, and verifies too, private parts included.
        complete = server.ledger_export("--private")
        for secret in ["40.630317", "8.657521", "40.611113", "8.699987", REPORT, "pin-checked"]:
            assert secret in complete, f"the private export lacks {secret!r}"
        status, report = outsider(write(server, "private.jsonl", complete))
        assert status == 0 and report["privateParts"] >= 3, report
        assert report["headHash"] == from_cli["headHash"], report
        # The ledger itself still verifies, the derived tables rebuilt from the private parts.
        verify = subprocess.run([GEOQR, "ledger", "verify", "--data", server.data], capture_output=True, text=True)
        assert verify.returncode == 0, verify


def test_an_edited_published_ledger_fails_both_verifiers():
    """My attack for §7: a player edits the published file, moving their find one second earlier,
    or deleting the refused claim that showed them out of place; both verifiers name the event."""
    with Server() as server:
        played(server)
        lines = server.ledger_export().splitlines()
        find = next(i for i, line in enumerate(lines) if '"kind":"find-recorded"' in line)
        event = json.loads(lines[find])
        event["time_ms"] -= 1000
        edited = lines[:find] + [json.dumps(event, sort_keys=True)] + lines[find + 1:]
        path = write(server, "edited.jsonl", "\n".join(edited) + "\n")
        status, report = outsider(path)
        assert status == 1 and report["firstBadSeq"] == find + 1, report
        verify = geoqr_verify(path)
        assert verify.returncode == 1 and f"event {find + 1}" in verify.stdout, verify
        refused = next(i for i, line in enumerate(lines) if '"kind":"claim-attempted"' in line)
        path = write(server, "short.jsonl", "\n".join(lines[:refused] + lines[refused + 1:]) + "\n")
        status, report = outsider(path)
        assert status == 1 and report["firstBadSeq"] == refused + 1, report
        assert geoqr_verify(path).returncode == 1


def test_a_player_cannot_download_the_private_ledger():
    """And the complete form stays the game master's: a player's token, or none, is refused."""
    with Server() as server:
        ada, _ = played(server)
        for token in (ada.token, None):
            answer = server.call("GET", "/api/admin/ledger?private=1", token=token)
            assert answer.status in (401, 403), answer
            assert REPORT.encode() not in answer.raw
        complete = server.admin("GET", "ledger?private=1")
        assert complete.status == 200 and REPORT.encode() in complete.raw, complete


run(globals())
