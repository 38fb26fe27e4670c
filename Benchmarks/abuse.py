#!/usr/bin/env python3
"""One hostile player against everyone else (issue 24): while an attacker process repeats one
attack, honest players' code claims, honest 12 MP photo claims and `/healthz` are timed; the
same figures with no attack come first. Prints a Markdown table (p50/p99 in ms, photo claims
answered) and, with --json, the figures as JSON.

    Benchmarks/abuse.sh [--quick] [--no-build] [--bin GEOQR] [--only ATTACK,…]

The server is a real `geoqr serve` on loopback with its rate limits on (not --load-test), behind
`--behind-proxy 127.0.0.1`, so the attacker can claim any address with X-Forwarded-For, as a
botnet of phones would have. Attacker and victims are separate processes: the attacker's
Python does not share an interpreter lock with the clocks of the victims.
"""
import argparse, json, multiprocessing, os, socket, statistics, struct, subprocess, sys, tempfile, threading, time, uuid, zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "abuse"))
import abuse_support
from abuse_support import Server, SITES, multipart

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


# --- what the attacker sends ------------------------------------------------------------------

def png_bomb(side=7071):
    """A PNG of side × side white grey pixels: 50 MB of pixels in about 50 KB."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    deflate = zlib.compressobj(9)
    row = b"\x00" + b"\xff" * side
    idat = b"".join(deflate.compress(row) for _ in range(side)) + deflate.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def many_parts_form(parts=40_000):
    fields = [("x%d" % i, "1") for i in range(parts)] + [("photo", b"\xff\xd8\xff", "p.jpg", "image/jpeg")]
    return multipart(fields)


def address(i):
    return "198.51.%d.%d" % ((i // 250) % 250, i % 250 + 1)


def attack(name, base_port, hunt_file_codes, stop, counts):
    """Runs one attack until `stop` is set; counts each answer's status in `counts`."""
    server = Server.__new__(Server)   # a client of the running server, not a second one
    server.port, server.base, server.codes = base_port, f"http://127.0.0.1:{base_port}", hunt_file_codes
    i = 0
    def tally(status):
        counts[str(status)] = counts.get(str(status), 0) + 1

    def call(*args, **options):
        try:
            tally(server.call(*args, **options).status)
        except OSError as error:
            tally(type(error).__name__)

    def me(prefix="attacker"):
        for attempt in range(200):
            answer = server.call("POST", "/api/join", {"name": f"{prefix}{uuid.uuid4().hex[:6]}", "pin": "4321"},
                                 headers={"X-Forwarded-For": address(10_000 + attempt)})
            if answer.status == 201:
                return answer.json["token"]
            time.sleep(0.5)
        raise RuntimeError("the attacker could not join")

    if name == "parts-form":
        token = me()
        body, kind = many_parts_form()
        while not stop.is_set():
            call("POST", "/api/claims/photo", body, token=token, content_type=kind, timeout=120)
    elif name == "png-bombs":
        token = me()
        body, kind = multipart([("photo", png_bomb(), "bomb.png", "image/png")])
        def one():
            while not stop.is_set():
                call("POST", "/api/claims/photo", body, token=token, content_type=kind, timeout=120)
        threads = [threading.Thread(target=one) for _ in range(6)]
        [t.start() for t in threads]
        [t.join() for t in threads]
    elif name == "combining-report":
        token = me()
        text = ("x" + "\u0301" * 9000) * 1000
        body = json.dumps({"cache": "A1", "kind": "damaged", "text": text}, ensure_ascii=False).encode()   # 18 MB
        while not stop.is_set():
            call("POST", "/api/reports", body, token=token, content_type="application/json", timeout=120)
    elif name == "pin-spray":
        while not stop.is_set():
            i += 1
            call("POST", "/api/signin", {"name": "victim0", "pin": "%04d" % (i % 10_000)},
                 headers={"X-Forwarded-For": address(i)})
    elif name == "join-flood":
        def one(k):
            j = 0
            while not stop.is_set():
                j += 1
                call("POST", "/api/join", {"name": f"f{k}x{j}{uuid.uuid4().hex[:4]}", "pin": "123456"},
                     headers={"X-Forwarded-For": address(k * 1000 + j)})
        threads = [threading.Thread(target=one, args=(k,)) for k in range(40)]
        [t.start() for t in threads]
        [t.join() for t in threads]
    elif name == "address-spray":
        # Joins with an empty body (400 once the limiter has counted them) from a new /64 each,
        # as a botnet or a large IPv6 allocation could send them: every one a new client for the
        # rate limiter's table. Four keep-alive connections, as fast as the server answers.
        import http.client
        def one(k):
            connection, j = None, 0
            while not stop.is_set():
                j += 1
                try:
                    connection = connection or http.client.HTTPConnection("127.0.0.1", base_port, timeout=30)
                    connection.request("POST", "/api/join", body=b"{}", headers={
                        "Content-Type": "application/json", "X-Forwarded-For": "2001:%x:%x:%x::1" % (0xdb8 + k, j >> 16, j & 0xffff)})
                    answer = connection.getresponse()
                    answer.read()
                    tally(answer.status)
                except OSError as error:
                    tally(type(error).__name__)
                    connection = None
        threads = [threading.Thread(target=one, args=(k,)) for k in range(4)]
        [t.start() for t in threads]
        [t.join() for t in threads]
    elif name == "position-flood":
        token = me()
        while not stop.is_set():
            call("POST", "/api/me/position", {"latitude": 40.63, "longitude": -8.65, "accuracy": 5}, token=token)
    elif name == "idle-sockets":
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        held = []
        while not stop.is_set():
            while len(held) < 1100 and not stop.is_set():
                try:
                    held.append(socket.create_connection(("127.0.0.1", base_port), timeout=2))
                    tally("open")
                except OSError as error:
                    tally(type(error).__name__)
                    break
            # sockets the server closed (idle timeout) are opened again
            alive = []
            for s in held:
                try:
                    s.setblocking(False)
                    if s.recv(1) == b"":
                        s.close(); tally("closed by server"); continue
                except BlockingIOError:
                    pass
                except OSError:
                    s.close(); tally("closed by server"); continue
                alive.append(s)
            held = alive
            time.sleep(0.5)
        for s in held:
            s.close()
    elif name == "streams":
        token = me()
        held = []
        while not stop.is_set():
            while len(held) < 200 and not stop.is_set():
                try:
                    s = socket.create_connection(("127.0.0.1", base_port), timeout=5)
                    s.sendall(f"GET /api/live?token={token}&lastEventId=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                    status = s.recv(64).split(b" ")[1].decode(errors="replace") if True else ""
                    tally(status)
                    held.append(s)
                except (OSError, IndexError) as error:
                    tally(type(error).__name__)
                    break
            for s in held:
                s.close()
            held = []
    else:
        raise SystemExit(f"unknown attack {name}")


ATTACKS = ["parts-form", "png-bombs", "combining-report", "pin-spray", "join-flood", "address-spray",
           "position-flood", "idle-sockets", "streams"]


# --- the honest players -----------------------------------------------------------------------

def honest(server, victims, photo, seconds):
    """Claims, photo claims and /healthz for `seconds`; returns their latencies in ms."""
    stop = time.monotonic() + seconds
    claims, health, photos = [], [], {"sent": 0, "answered": 0, "ms": []}

    def claim_loop(k):
        caches = list(SITES)
        j = 0
        while time.monotonic() < stop:
            victim = victims[k]
            cache = caches[j % 3]; j += 1
            try:
                answer = server.claim(victim, cache)
                claims.append(answer.seconds * 1000 if answer.status == 200 else float("inf"))
            except OSError:
                claims.append(float("inf"))
            time.sleep(1)   # within a phone's claim limit (2/s): what is timed is the server, not 429s

    def health_loop():
        while time.monotonic() < stop:
            health.append(server.timed_health(timeout=10) * 1000)
            time.sleep(0.1)

    def photo_loop():
        body, kind = multipart([("photo", photo, "photo.jpg", "image/jpeg")])
        while time.monotonic() < stop:
            photos["sent"] += 1
            try:
                answer = server.call("POST", "/api/claims/photo", body, token=victims[-1].token, content_type=kind, timeout=30)
                if answer.status == 200:
                    photos["answered"] += 1
                    photos["ms"].append(answer.seconds * 1000)
            except OSError:
                pass
            time.sleep(1)

    threads = [threading.Thread(target=claim_loop, args=(k,)) for k in range(len(victims) - 1)]
    threads[1::2] = [threading.Timer(0.5, claim_loop, args=(k,)) for k in range(1, len(victims) - 1, 2)]
    threads += [threading.Thread(target=health_loop), threading.Thread(target=photo_loop)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    return claims, health, photos


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ms(value):
    return "timeout" if value == float("inf") else ("–" if value != value else f"{value:.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    abuse_support.GEOQR = args.bin
    attacks = [a for a in (args.only.split(",") if args.only else ATTACKS) if a]
    rows = []
    with Server(args=["--behind-proxy", "127.0.0.1"]) as server:
        server.start_hunt()
        victims = [server.join(f"victim{k}", pin="4321", headers={"X-Forwarded-For": f"203.0.113.{k + 1}"}) for k in range(9)]
        photo_file = os.path.join(server.dir, "photo.jpg")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/load/make-photo.py"), "--code", server.code("A1"),
                        "--at", "%f,%f" % SITES["A1"], "-o", photo_file], check=True)
        photo = open(photo_file, "rb").read()
        codes = {c: server.code(c) for c in SITES}
        for name in ["none"] + attacks:
            manager = multiprocessing.Manager()
            stop, counts = manager.Event(), manager.dict()
            attacker = None
            if name != "none":
                attacker = multiprocessing.Process(target=attack, args=(name, server.port, codes, stop, counts))
                attacker.start()
                time.sleep(2)   # the attack under way before the clocks start
            claims, health, photos = honest(server, victims, photo, args.seconds)
            stop.set()
            if attacker:
                attacker.join(timeout=150)
                if attacker.is_alive():
                    attacker.kill()
            rows.append({
                "attack": name,
                "claims": {"n": len(claims), "p50": percentile(claims, 50), "p99": percentile(claims, 99)},
                "healthz": {"n": len(health), "p50": percentile(health, 50), "p99": percentile(health, 99)},
                "photos": {"sent": photos["sent"], "answered": photos["answered"], "p50": percentile(photos["ms"], 50)},
                "attacker": dict(counts),
                "rss_mb": rss_mb(server.process.pid),
            })
            print(f"{name}: claims p99 {ms(rows[-1]['claims']['p99'])} ms, /healthz p99 {ms(rows[-1]['healthz']['p99'])} ms, "
                  f"photos {photos['answered']}/{photos['sent']}, attacker {dict(counts)}", file=sys.stderr, flush=True)
            time.sleep(3)   # what the attack left running drains before the next
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
        return
    print("| attack | claims p50 / p99 (ms) | /healthz p50 / p99 (ms) | honest photo claims answered (p50 ms) | server peak RSS (MB) | attacker's answers |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["attacker"].items())) or "–"
        print(f"| {r['attack']} | {ms(r['claims']['p50'])} / {ms(r['claims']['p99'])} | {ms(r['healthz']['p50'])} / "
              f"{ms(r['healthz']['p99'])} | {r['photos']['answered']}/{r['photos']['sent']} ({ms(r['photos']['p50'])}) | "
              f"{r['rss_mb']} | {answers} |")


def rss_mb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


if __name__ == "__main__":
    main()
