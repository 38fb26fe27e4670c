"""Issue 24 §1, heavy work cannot starve the rest: the 40,000-part photo form, six PNG bombs at
once, a progressive JPEG of too many scans, and forty joins at once (bcrypt). Each is refused
(or answered) while `/healthz` and another player's code claim stay quick, and no bomb leaves
an event in the ledger."""
import os, struct, subprocess, tempfile, time, zlib
from abuse_support import Server, multipart, in_background, run, A1

QUICK = 2.0   # seconds: generous, for a debug (even ASan) build


def png_bomb(side=7071):
    """A PNG of side × side white grey pixels: about 50 MP in a few dozen KB."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + b"\xff" * side
    z = zlib.compressobj(9)
    data = b"".join(z.compress(row) for _ in range(side)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def quick_meanwhile(server, honest, attack):
    """Runs `attack` in the background and, while it runs, times /healthz and an honest claim."""
    thread = in_background(attack)
    health, claims = [], []
    while thread.is_alive():
        health.append(server.timed_health())
        answer = server.claim(honest, "A1")
        assert answer.status == 200, answer
        claims.append(answer.seconds)
        time.sleep(0.5)   # an honest phone's pace, within the per-address claim limit
    thread.join()
    if thread.error:
        raise thread.error
    return thread.result, max(health, default=0), max(claims, default=0)


def no_code_events(server):
    return server.ledger_export().count("no-code")


def test_forty_thousand_part_form():
    with Server() as server:
        server.start_hunt()
        attacker, honest = server.join("Mallory"), server.join("Honest")
        fields = [(f"f{i}", "x") for i in range(40_000)] + [("photo", png_bomb(64), "a.png", "image/png")]
        body, content_type = multipart(fields)
        assert len(body) > 2_000_000

        def attack():
            return [server.call("POST", "/api/claims/photo", body, token=attacker.token, content_type=content_type)
                    for _ in range(2)]
        answers, health, claim = quick_meanwhile(server, honest, attack)
        for answer in answers:
            assert answer.status == 400 and answer.json["error"] == "bad-form", answer
            assert answer.json["message"] == "the form has more than 8 parts", answer
        assert health < QUICK and claim < QUICK, (health, claim)
        print(f"      40,000-part form answered in {max(a.seconds for a in answers):.2f} s; "
              f"/healthz at most {health:.2f} s, honest claim at most {claim:.2f} s")


def test_six_png_bombs_at_once():
    with Server() as server:
        server.start_hunt()
        bomb = png_bomb()
        assert len(bomb) < 100_000
        honest = server.join("Honest")
        attackers = [server.join(f"Bomber{i}") for i in range(6)]
        one = server.join("OnePhone")
        body, content_type = multipart([("photo", bomb, "bomb.png", "image/png"),
                                        ("latitude", str(A1[0])), ("longitude", str(A1[1]))])
        before = no_code_events(server)

        def attack():
            # Six players with a bomb each, and one phone sending six at once.
            threads = [in_background(server.call, "POST", "/api/claims/photo", body, p.token, None, content_type)
                       for p in attackers]
            threads += [in_background(server.call, "POST", "/api/claims/photo", body, one.token, None, content_type)
                        for _ in range(6)]
            for t in threads:
                t.join()
            return [t.result for t in threads]
        answers, health, claim = quick_meanwhile(server, honest, attack)
        for answer in answers[:6]:
            assert answer.status == 422 and answer.json["error"] == "bad-picture", answer
            assert "limit for PNG pictures" in answer.json["message"], answer
        for answer in answers[6:]:
            # Refused as a bomb, or as a second picture of the same player while one is read.
            assert (answer.status, answer.json["error"]) in {(422, "bad-picture"), (429, "one-at-a-time"),
                                                             (503, "server-busy")}, answer
            if answer.status in (429, 503):
                assert answer.headers.get("retry-after"), answer
        assert health < QUICK and claim < QUICK, (health, claim)
        # Nothing a bomb did is kept: no no-code claim, and the frame and report routes refuse it too.
        frame = server.call("POST", f"/api/claims/frame?latitude={A1[0]}&longitude={A1[1]}", bomb,
                            token=attackers[0].token, content_type="image/png")
        assert frame.status == 422 and frame.json["error"] == "bad-picture", frame
        assert no_code_events(server) == before
        print(f"      12 bombs answered in at most {max(a.seconds for a in answers):.2f} s; "
              f"/healthz at most {health:.2f} s, honest claim at most {claim:.2f} s")


def test_progressive_jpeg_of_many_scans():
    """Own attack: a progressive JPEG whose last scan is repeated 300 times, each repeat a pass
    over every block, sent as camera frames. Refused while read, past 100 scans."""
    with Server() as server:
        server.start_hunt()
        mallory = server.join("Mallory")
        with tempfile.TemporaryDirectory() as folder:
            pgm = os.path.join(folder, "frame.pgm")
            with open(pgm, "wb") as f:
                f.write(b"P5 800 600 255\n" + bytes(((x // 40 + y // 40) % 2) * 200 for y in range(600) for x in range(800)))
            jpeg = subprocess.run(["cjpeg", "-progressive", "-quality", "80", pgm], check=True, capture_output=True).stdout
        last = jpeg.rindex(b"\xff\xda")
        many = jpeg[:-2] + jpeg[last:-2] * 300 + b"\xff\xd9"
        answer = server.call("POST", f"/api/claims/frame?latitude={A1[0]}&longitude={A1[1]}", many,
                             token=mallory.token, content_type="image/jpeg")
        assert answer.status == 422 and answer.json["error"] == "bad-picture", answer
        assert "more than 100 scans" in answer.json["message"], answer
        plain = server.call("POST", f"/api/claims/frame?latitude={A1[0]}&longitude={A1[1]}", jpeg,
                            token=mallory.token, content_type="image/jpeg")
        assert plain.status == 200 and plain.json["verdict"] == "no-code", plain
        print(f"      {len(many) // 1024} KB of 300 repeated scans refused in {answer.seconds:.2f} s")


def test_forty_joins_at_once():
    """Own attack: forty joins at once (bcrypt at the server's cost) no longer hold up /healthz."""
    with Server() as server:
        server.start_hunt()
        honest = server.join("Honest")

        def attack():
            threads = [in_background(server.call, "POST", "/api/join", {"name": f"Joiner{i}", "pin": "4321"})
                       for i in range(40)]
            for t in threads:
                t.join()
            return [t.result for t in threads]
        answers, health, claim = quick_meanwhile(server, honest, attack)
        for answer in answers:
            assert answer.status in (201, 429, 503), answer
            if answer.status == 503:
                assert answer.json["error"] == "server-busy" and answer.headers.get("retry-after"), answer
        assert health < QUICK and claim < QUICK, (health, claim)
        print(f"      {sum(a.status == 201 for a in answers)} of 40 joined; /healthz at most {health:.2f} s")


run(globals())
