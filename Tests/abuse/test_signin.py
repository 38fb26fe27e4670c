"""Issue 24 §6 and §8 (sign-in guessing, sessions, the admin token, claim ids), against a real
`geoqr serve --behind-proxy 127.0.0.1`, so each request can say which address it comes from
(X-Forwarded-For, believed from the loopback proxy only).

    GEOQR_BIN=.build/debug/geoqr python3 Tests/abuse/test_signin.py
"""
import hashlib, hmac, os, subprocess, time, uuid
from abuse_support import GEOQR, SITES, Server, in_background, run

PROXY = ["--behind-proxy", "127.0.0.1"]


def sign_in(server, name, pin, address):
    return server.call("POST", "/api/signin", {"name": name, "pin": pin}, headers={"X-Forwarded-For": address})


def pin_checks(server):
    """How many PINs bcrypt judged: the ledger's pin-checked events (`geoqr ledger show --json`)."""
    out = subprocess.run([GEOQR, "ledger", "show", "--data", server.data, "--hunt", server.hunt_file, "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.count('"pin-checked"')


def join_from(server, name, address, pin="4321"):
    answer = server.call("POST", "/api/join", {"name": name, "pin": pin}, headers={"X-Forwarded-For": address})
    assert answer.status == 201, answer
    return answer.json


def test_five_wrong_pins_from_each_of_four_addresses_do_not_lock_the_rival_out():
    with Server(PROXY) as server:
        rival = join_from(server, "Leader", "198.51.100.50")            # her phone's network
        answers = [sign_in(server, "Leader", f"{1000 + i:04d}", f"192.0.2.{a}") for a in range(4) for i in range(5)]
        assert all(a.status in (401, 429) for a in answers), answers
        assert {a.json["error"] for a in answers} <= {"wrong-pin", "locked-out"}, answers
        # 10 judged for her from networks she never used (the one that reaches a limit is answered
        # locked-out), then refused before bcrypt.
        assert sum(a.json["error"] == "wrong-pin" for a in answers) == 8, answers
        assert pin_checks(server) == 10
        back = sign_in(server, "Leader", "4321", "198.51.100.50")
        assert back.status == 200, f"the rival signs in where she joined: {back}"
        me = server.call("GET", "/api/me", token=rival["token"])
        assert me.status == 200 and me.json["player"]["name"] == "Leader", me
        # The guessers' own networks are what stays locked, with a Retry-After.
        again = sign_in(server, "Leader", "4321", "192.0.2.0")
        assert again.status == 429 and again.json["error"] == "locked-out", again
        assert 1 <= int(again.headers.get("retry-after", "0")) <= 15 * 60, again.headers


def test_one_address_spraying_names_is_slowed_ipv6_counted_by_slash_64():
    with Server(PROXY) as server:
        names = [f"Walker{i}" for i in range(25)]
        for i, name in enumerate(names):
            join_from(server, name, f"203.0.113.{i + 1}")
        # Every guess from a different address of one /64, one name each: the guess count and
        # the rate limiter (20 sign-ins at once, then one every 5 s) both key by /64.
        answers = [sign_in(server, name, "0000", f"2001:db8:5:5::{i + 1:x}") for i, name in enumerate(names)]
        judged = [a for a in answers if a.status == 401]
        refused = [a for a in answers if a.status == 429]
        # 20 judged (the 20th, reaching the limit, is answered locked-out), then refused: locked
        # out, or held back by the limiter first.
        assert len(judged) == 19 and len(refused) == 6, answers
        assert pin_checks(server) == 20
        assert refused[0].json["error"] == "locked-out", refused
        assert all(a.json["error"] in ("locked-out", "rate-limited") for a in refused), refused
        assert any(a.json["error"] == "rate-limited" for a in refused), "the limiter saw one client, not 25"
        # Made-up names cost the same: no free way to learn who plays (once the limiter lets
        # the /64 ask again).
        if refused[-1].json["error"] == "rate-limited":
            time.sleep(int(refused[-1].headers["retry-after"]))
        unknown = sign_in(server, "Nobody", "0000", "2001:db8:5:5::ffff")
        assert unknown.status == 429 and unknown.json["error"] == "locked-out", unknown
        # The walkers themselves are not held up, and another /64 is another network.
        assert sign_in(server, "Walker3", "4321", "203.0.113.4").status == 200
        assert sign_in(server, "Walker4", "0000", "2001:db8:5:6::1").status == 401


def test_a_burst_of_simultaneous_guesses_from_forty_addresses_judges_ten():
    """An attack of our own: all at once, so no count could be read before another is written."""
    with Server(PROXY) as server:
        join_from(server, "Target", "198.51.100.60")
        threads = [in_background(sign_in, server, "Target", f"{2000 + i:04d}", f"10.{i}.0.1") for i in range(40)]
        for t in threads:
            t.join(60)
        answers = [t.result for t in threads]
        assert all(a is not None for a in answers), [t.error for t in threads]
        # Judged ones that end after the lock was set are answered locked-out too.
        assert all(a.status in (401, 429) for a in answers) and sum(a.status == 401 for a in answers) <= 10, answers
        assert pin_checks(server) == 10, "exactly ten judged, however they raced"
        assert sign_in(server, "Target", "4321", "198.51.100.60").status == 200


def typed_code(server, cache):
    """The typed code printed on the card: HMAC-SHA256 over GQT1.HUNT.CACHE, 40 bits, Crockford base32."""
    server.code(cache)   # makes the hunt's secret
    with open(os.path.join(server.data, "secrets", server.hunt["id"].upper() + ".key"), "rb") as f:
        key = f.read()
    mac = hmac.new(key, f"GQT1.{server.hunt['id'].upper()}.{cache}".encode(), hashlib.sha256).digest()[:5]
    bits = int.from_bytes(mac, "big")
    symbols = "".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(bits >> (35 - 5 * i)) & 31] for i in range(8))
    return f"{cache}-{symbols[:4]}-{symbols[4:]}"


def test_forged_typed_codes_lock_even_with_valid_ones_between():
    with Server() as server:
        server.start_hunt()
        ada = server.join("Ada")
        valid = typed_code(server, "A1")
        lat, lon = SITES["A1"]
        claim = lambda code: server.call("POST", "/api/claims", {"code": code, "latitude": lat, "longitude": lon,
                                                                 "accuracy": 5, "method": "typed"}, token=ada.token)
        first = claim(valid)
        assert first.status == 200 and first.json["outcome"] == "found", first
        verdicts = []
        for _ in range(2):
            for _ in range(4):
                verdicts.append(claim("B1-0000-0000"))
            verdicts.append(claim(valid))   # already found: not a forgery, and no longer a reset
        assert verdicts[-1].status == 429 and verdicts[-1].json["error"] == "typing-locked-out", verdicts
        assert [v.json["verdict"] for v in verdicts[:5]] == ["forged"] * 4 + ["already-found"], verdicts[:5]


def test_a_known_claim_id_from_another_player_gets_that_players_own_verdict():
    with Server() as server:
        server.start_hunt()
        ada, bo = server.join("Ada"), server.join("Bo")
        mine = server.claim(ada, "A1", claimId="phone-claim-1")
        assert mine.status == 200 and mine.json["outcome"] == "found", mine
        far = (SITES["A1"][0] + 0.01, SITES["A1"][1])
        theirs = server.claim(bo, "A1", where=far, claimId="phone-claim-1")
        assert theirs.status == 200, theirs
        best = theirs.json
        assert best["verdict"] == "too-far" and best.get("find") is None, f"Bo got his own verdict, not Ada's find: {best}"
        assert "Welcome to A1" not in theirs.raw.decode(), "Ada's card message did not reach Bo"
        finds = server.call("GET", "/api/me/finds", token=bo.token)
        assert finds.status == 200 and finds.json["finds"] == [], finds


def test_a_signed_out_token_gets_401_and_all_ends_every_session():
    with Server(PROXY) as server:
        ada = join_from(server, "Ada", "198.51.100.70")
        laptop = sign_in(server, "Ada", "4321", "198.51.100.70").json["token"]
        out = server.call("POST", "/api/signout", token=ada["token"])
        assert out.status == 200 and out.json == {"ok": True, "all": False}, out
        gone = server.call("GET", "/api/me", token=ada["token"])
        assert gone.status == 401 and "error" in gone.json, gone
        assert server.call("GET", "/api/me", token=laptop).status == 200, "the other session goes on"
        phone = sign_in(server, "Ada", "4321", "198.51.100.70").json["token"]
        assert server.call("POST", "/api/signout?all=true", token=phone).json == {"ok": True, "all": True}
        assert server.call("GET", "/api/me", token=laptop).status == 401
        assert server.call("POST", "/api/signout", token=laptop).status == 401, "a token signed out stays out"


def test_rotating_the_admin_token_stops_the_old_link_on_the_running_server():
    """An attack of our own: the admin link leaked; the game master rotates it while serving."""
    with Server() as server:
        old = server.admin_token()
        assert server.call("GET", "/api/admin/overview", token=old).status == 200
        out = subprocess.run([GEOQR, "gm", "rotate-admin-token", "--hunt", server.hunt_file, "--data", server.data,
                              "--public-url", "https://hunt.example.org", "--json"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        import json
        rotated = json.loads(out.stdout)
        new = rotated["token"]
        assert new != old and rotated["adminLink"] == f"https://hunt.example.org/admin.html#token={new}", rotated
        deadline = time.time() + 5
        while time.time() < deadline and server.call("GET", "/api/admin/overview", token=old).status == 200:
            time.sleep(0.2)
        assert server.call("GET", "/api/admin/overview", token=old).status == 403, "the old link stops within seconds"
        assert server.call("GET", "/api/admin/overview", token=new).status == 200
        with open(os.path.join(server.data, "server", "ABUSE.admin")) as f:
            assert f.read().strip() == new
        assert oct(os.stat(os.path.join(server.data, "server", "ABUSE.admin")).st_mode & 0o777) == "0o600"


run(globals())
