#!/usr/bin/env python3
"""A small load client for `geoqr serve`: players that play, on real sockets.

Python's standard library only (asyncio streams, HTTP/1.1 keep-alive), so it runs wherever
the repository does. Subcommands:

  players  --url U --count N --out players.json      join N players (names and tokens)
  mix      --url U --players players.json ...        the realistic mix (see MIX), per-kind
                                                     latency, a journal of what was acknowledged
  codes    --url U --decoded D --out-json C --out-txt T   the hunt's codes (from `geoqr decode
                                                     --json` of `geoqr code HUNT -o DIR`) with
                                                     each cache's place, for the scripts
  check    --journal J --events events.jsonl         every acknowledged act is in the ledger;
                                                     no item has two owners

The mix: every player keeps a server-sent event stream open and, on its own connection, does
what a phone does: lists caches from where it stands, claims by link in radius (a cache it has
not found yet, so a new find) and out of radius (300 m off), uploads a photo now and then,
offers one of its cards to another player and accepts what it is offered; newcomers join.
A 4xx the game gives (409 for a card already held, say) is an answer, not an error; errors are
5xx and failed connections. Latency is measured from sending the request to reading the last
byte of the response.
"""
import argparse, asyncio, json, math, os, random, sys, time, urllib.parse

# kind → weight. Reads dominate, as on a phone that refreshes its list while walking.
MIX = {
    "caches": 30, "leaderboard": 8, "collection": 8, "claim-in": 16, "claim-out": 12,
    "photo": 1, "offer": 8, "trades": 10, "join": 2, "me": 5,
}


class Closed(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection; reconnects after a failure."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method, path, body=b"", headers=None, timeout=30):
        if self.writer is None:
            self.reader, self.writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port, limit=1 << 22), timeout)
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        try:
            return await asyncio.wait_for(self._response(), timeout)
        except BaseException:
            self.close()
            raise

    async def _response(self):
        line = await self.reader.readline()
        if not line:
            raise Closed("connection closed by the server")
        status = int(line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            headers[k.strip().lower()] = v.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readline()
            body = b"".join(parts)
        else:
            body = b""
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, body

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Stats:
    def __init__(self):
        self.lat = {}      # kind → [seconds]
        self.status = {}   # kind → {status: count}
        self.errors = {}   # kind → count of 5xx and connection failures
        self.error_samples = []
        self.not_json_errors = 0   # error responses whose body is not {"error": …, "message": …}

    def check_error_body(self, body):
        try:
            ok = isinstance(json.loads(body).get("error"), str)
        except (ValueError, AttributeError):
            ok = False
        if not ok:
            self.not_json_errors += 1
            if len(self.error_samples) < 20:
                self.error_samples.append(f"error body not JSON: {body[:120]!r}")

    def add(self, kind, seconds, status):
        self.lat.setdefault(kind, []).append(seconds)
        by = self.status.setdefault(kind, {})
        by[status] = by.get(status, 0) + 1
        if status == "conn" or (isinstance(status, int) and status >= 500):
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def summary(self, seconds):
        out = {}
        for kind, values in sorted(self.lat.items()):
            values.sort()
            pick = lambda q: values[min(len(values) - 1, int(q * len(values)))] * 1000
            out[kind] = {"count": len(values), "per_s": len(values) / seconds, "p50_ms": pick(0.5),
                         "p99_ms": pick(0.99), "p999_ms": pick(0.999), "max_ms": values[-1] * 1000,
                         "status": {str(k): v for k, v in sorted(self.status[kind].items(), key=str)},
                         "errors": self.errors.get(kind, 0)}
        return out


class Journal:
    """What the server acknowledged, one JSON object a line, flushed as it happens."""

    def __init__(self, path):
        self.file = open(path, "a") if path else None

    def write(self, **fields):
        if self.file:
            self.file.write(json.dumps(fields) + "\n")
            self.file.flush()


def jbody(obj):
    return json.dumps(obj).encode()


def offset(lat, lon, north_m, east_m):
    return lat + north_m / 111_320.0, lon + east_m / (111_320.0 * math.cos(math.radians(lat)))


class Player:
    def __init__(self, info, caches, codes):
        self.id, self.name, self.token = info["id"], info["name"], info["token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}
        self.unfound = [c for c in caches if c["id"] in codes]
        random.shuffle(self.unfound)
        self.cards = []


async def join(conn, name, pin="2468"):
    status, body = await conn.request("POST", "/api/join", jbody({"name": name, "pin": pin}),
                                      {"Content-Type": "application/json"})
    if status != 201:
        raise RuntimeError(f"join {name}: {status} {body[:200]!r}")
    reply = json.loads(body)
    return {"id": reply["player"]["id"], "name": name, "token": reply["token"]}


async def make_players(host, port, count, prefix, concurrency=16):
    names = [f"{prefix}{i}" for i in range(count)]
    players, queue = [], list(reversed(names))

    async def worker():
        conn = Conn(host, port)
        while queue:
            players.append(await join(conn, queue.pop()))
        conn.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return players


async def sse(servers, first, token, counts, stop):
    """Holds a player's event stream open until `stop`, counting the events that arrive; with
    several servers, on the `first`-th, and on the next one after the stream drops (as a
    balancer would send it)."""
    turn = first
    while not stop.is_set():
        host, port = servers[turn % len(servers)]
        turn += 1
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(f"GET /api/live?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            counts["open"] += 1
            while not stop.is_set():
                data = await reader.read(1 << 16)
                if not data:
                    break
                counts["events"] += data.count(b"event: ")
            writer.close()
        except (OSError, asyncio.IncompleteReadError):
            pass
        counts["open"] -= 1
        if not stop.is_set():
            counts["reconnects"] += 1
            await asyncio.sleep(0.5)


async def play(args, player, everyone, stats, journal, deadline, photo, photo_ct):
    # With several servers (--url A,B) players take turns, and one whose server stops
    # answering goes on with the next, as a balancer would send them.
    server = everyone.index(player)
    conn = Conn(*args.servers[server % len(args.servers)])
    weights = dict(MIX)
    weights["photo"] = args.photo_weight
    kinds, w = zip(*weights.items())
    newcomer = 0
    while time.monotonic() < deadline:
        kind = random.choices(kinds, w)[0]
        method, path, body, headers = "GET", None, b"", dict(player.auth)
        cache = None
        if kind == "caches":
            c = random.choice(args.caches)
            lat, lon = offset(c["latitude"], c["longitude"], random.uniform(-200, 200), random.uniform(-200, 200))
            path = f"/api/caches?latitude={lat:.6f}&longitude={lon:.6f}"
        elif kind == "leaderboard":
            path = "/api/leaderboard"
        elif kind == "me":
            path = "/api/me"
        elif kind == "collection":
            path = "/api/me/collection"
        elif kind in ("claim-in", "claim-out"):
            cache = player.unfound[-1] if kind == "claim-in" and player.unfound else random.choice(args.caches)
            north = random.uniform(-8, 8) if kind == "claim-in" else 300
            lat, lon = offset(cache["latitude"], cache["longitude"], north, random.uniform(-8, 8) if kind == "claim-in" else 0)
            method, path = "POST", "/api/claims"
            body = jbody({"code": args.codes[cache["id"]], "latitude": lat, "longitude": lon, "accuracy": 8})
            headers["Content-Type"] = "application/json"
        elif kind == "photo":
            method, path, body = "POST", "/api/claims/photo", photo
            headers["Content-Type"] = photo_ct
        elif kind == "offer":
            if not player.cards:
                kind, path = "collection", "/api/me/collection"
            else:
                card = random.choice(player.cards)
                other = random.choice(everyone)
                if other is player:
                    continue
                method, path = "POST", "/api/trades"
                body = jbody({"to": other.id, "give": [card], "receive": []})
                headers["Content-Type"] = "application/json"
        elif kind == "trades":
            path = "/api/trades"
        elif kind == "join":
            newcomer += 1
            method, path, headers = "POST", "/api/join", {"Content-Type": "application/json"}
            body = jbody({"name": f"{player.name}n{newcomer}r{random.randrange(1 << 30)}", "pin": "2468"})
        start = time.monotonic()
        try:
            status, reply = await conn.request(method, path, body, headers, timeout=args.timeout)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, Closed, ValueError, IndexError) as e:
            stats.add(kind, time.monotonic() - start, "conn")
            if len(stats.error_samples) < 20:
                stats.error_samples.append(f"{kind}: {type(e).__name__}: {e}")
            if len(args.servers) > 1:
                conn.close()
                server += 1
                conn = Conn(*args.servers[server % len(args.servers)])
            await asyncio.sleep(0.2)
            continue
        stats.add(kind, time.monotonic() - start, status)
        if status >= 400:
            stats.check_error_body(reply)
        if status >= 500 and len(stats.error_samples) < 20:
            stats.error_samples.append(f"{kind}: {status} {reply[:200]!r}")
        if status >= 300:
            continue
        data = json.loads(reply) if reply else {}
        if kind in ("claim-in", "claim-out", "photo"):
            if data.get("verdict") == "claimable":
                journal.write(act="find", player=player.id, cache=data.get("cache"), find=data.get("find"))
            if kind == "claim-in" and cache is not None and data.get("verdict") in ("claimable", "already-found"):
                if player.unfound and player.unfound[-1] is cache:
                    player.unfound.pop()
        elif kind == "collection":
            player.cards = [c["id"] for c in data.get("cards", [])]
        elif kind == "offer":
            journal.write(act="offer", trade=data["id"], player=player.id)
            player.cards.remove(json.loads(body)["give"][0])
        elif kind == "join":
            journal.write(act="join", player=data["player"]["id"])
        elif kind == "trades":
            for offer in data.get("incoming", []):
                if offer.get("state") != "open" or time.monotonic() >= deadline:
                    continue
                start = time.monotonic()
                try:
                    status, reply = await conn.request("POST", f"/api/trades/{offer['id']}/accept", b"", player.auth,
                                                       timeout=args.timeout)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, Closed, ValueError, IndexError) as e:
                    stats.add("accept", time.monotonic() - start, "conn")
                    break
                stats.add("accept", time.monotonic() - start, status)
                if status == 200 and json.loads(reply).get("state") == "accepted":
                    journal.write(act="accept", trade=offer["id"], player=player.id, items=offer["give"] + offer["receive"])
                elif status >= 500 and len(stats.error_samples) < 20:
                    stats.error_samples.append(f"accept: {status} {reply[:200]!r}")
    conn.close()


def multipart(photo_path):
    boundary = "geoqrload" + os.urandom(8).hex()
    data = open(photo_path, "rb").read()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


async def run_mix(args):
    for attempt in range(100):   # the server may be starting (or restarting, in the crash loop)
        conn = Conn(*args.servers[attempt % len(args.servers)])
        try:
            status, body = await conn.request("GET", "/api/caches")
            if status == 200:
                break
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, Closed):
            pass
        await asyncio.sleep(0.1)
    conn.close()
    args.caches = json.loads(body)["caches"]
    args.codes = json.load(open(args.codes_file))
    infos = json.load(open(args.players))
    infos = infos[args.offset:args.offset + args.connections]
    if len(infos) < args.connections:
        raise SystemExit(f"{args.players} has too few players for --offset {args.offset} --connections {args.connections}")
    everyone = [Player(i, args.caches, args.codes) for i in infos]
    photo, photo_ct = multipart(args.photo) if args.photo else (b"", "")
    if not args.photo:
        args.photo_weight = 0
    stats, journal = Stats(), Journal(args.journal)
    stop = asyncio.Event()
    counts = {"open": 0, "events": 0, "reconnects": 0}
    streams = [asyncio.create_task(sse(args.servers, i, p.token, counts, stop)) for i, p in enumerate(everyone)] if args.sse else []
    await asyncio.sleep(0.5 if streams else 0)
    started = time.monotonic()
    deadline = started + args.duration
    if args.started:
        open(args.started, "w").close()
    await asyncio.gather(*(play(args, p, everyone, stats, journal, deadline, photo, photo_ct) for p in everyone))
    elapsed = time.monotonic() - started
    open_at_end = counts["open"]
    stop.set()
    for t in streams:
        t.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    summary = {"connections": args.connections, "seconds": elapsed, "sse_streams": len(streams),
               "sse_open_at_end": open_at_end, "sse_events": counts["events"], "sse_reconnects": counts["reconnects"],
               "kinds": stats.summary(elapsed), "errors": sum(stats.errors.values()),
               "not_json_errors": stats.not_json_errors,
               "error_samples": stats.error_samples}
    total = sum(k["count"] for k in summary["kinds"].values())
    summary["requests_per_s"] = total / elapsed
    print_summary(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    return summary


def print_summary(s):
    print(f"{s['connections']} connections, {s['seconds']:.1f} s, {s['requests_per_s']:.0f} requests/s, "
          f"{s['sse_streams']} event streams ({s['sse_events']} events, {s['sse_reconnects']} reconnects), "
          f"errors (5xx + connection): {s['errors']}, error bodies not JSON: {s['not_json_errors']}")
    print(f"{'kind':<12} {'count':>7} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} {'p99.9 ms':>9}  statuses")
    for kind, k in s["kinds"].items():
        print(f"{kind:<12} {k['count']:>7} {k['per_s']:>7.0f} {k['p50_ms']:>8.1f} {k['p99_ms']:>8.1f} {k['p999_ms']:>9.1f}  "
              + " ".join(f"{st}:{n}" for st, n in k["status"].items()))
    for e in s["error_samples"][:5]:
        print("  error:", e)
    sys.stdout.flush()


def check(args):
    """Every acknowledged act of the journal is in the exported events; replaying the card
    moves gives every item one owner at each step and no player two cards of one cache."""
    finds, offers, accepts, joins = {}, set(), {}, set()
    owner, card_cache, problems = {}, {}, []
    for line in open(args.events):
        e = json.loads(line)
        body = json.loads(e["body"]) if isinstance(e.get("body"), str) else e.get("body", {})
        kind = e.get("kind")   # a published export's withheld events (PIN checks) have none
        if kind == "player-joined":
            joins.add(body["player"])
        elif kind == "find-recorded":
            finds[body["find"]] = body["claim"]["player"]
            card = body.get("card")
            if card:
                if card["item"] in owner:
                    problems.append(f"card {card['item']} granted twice")
                owner[card["item"]] = body["claim"]["player"]
                card_cache[card["item"]] = card["cache"]
        elif kind == "trade-offered":
            offers.add(body["trade"]["id"])
        elif kind == "trade-accepted":
            accepts[body["trade"]] = body["moves"]
            for m in body["moves"]:
                if owner.get(m["item"]) != m["from"]:
                    problems.append(f"trade {body['trade']} moves {m['item']} from {m['from']}, "
                                    f"but its owner was {owner.get(m['item'])}")
                owner[m["item"]] = m["to"]
    held = {}
    for item, who in owner.items():
        if item in card_cache:
            key = (who, card_cache[item])
            if key in held:
                problems.append(f"{who} holds two cards of {card_cache[item]}: {held[key]} and {item}")
            held[key] = item
    acked = {"find": 0, "offer": 0, "accept": 0, "join": 0}
    for line in open(args.journal):
        a = json.loads(line)
        acked[a["act"]] += 1
        if a["act"] == "find" and finds.get(a["find"]) != a["player"]:
            problems.append(f"acknowledged find {a['find']} of {a['player']} is not in the ledger")
        elif a["act"] == "offer" and a["trade"] not in offers:
            problems.append(f"acknowledged offer {a['trade']} is not in the ledger")
        elif a["act"] == "accept" and a["trade"] not in accepts:
            problems.append(f"acknowledged accepted trade {a['trade']} is not in the ledger")
        elif a["act"] == "join" and a["player"] not in joins:
            problems.append(f"acknowledged join {a['player']} is not in the ledger")
    print(f"check: acknowledged {acked['find']} finds, {acked['offer']} offers, {acked['accept']} accepted trades, "
          f"{acked['join']} joins; ledger has {len(finds)} finds, {len(offers)} offers, {len(accepts)} accepted trades, "
          f"{len(owner)} cards; problems: {len(problems)}")
    for p in problems[:20]:
        print("  problem:", p)
    return 1 if problems else 0


def codes(args):
    """{cache: code} for the mix, and `cache code lat lon` lines for the wrk scripts."""
    text = open(args.decoded).read().strip()
    try:
        entries = json.loads(text)
        entries = entries if isinstance(entries, list) else [entries]
    except json.JSONDecodeError:
        entries = [json.loads(line) for line in text.splitlines() if line.strip()]
    found = {}
    for e in entries:
        for c in e.get("codes", []):
            parts = c["text"].split("/C/")[-1].split(".")
            if len(parts) == 4:
                found[parts[2]] = c["text"]
    url = urllib.parse.urlsplit(args.url)
    conn = Conn(url.hostname, url.port or 80)
    status, body = asyncio.run(conn.request("GET", "/api/caches"))
    caches = json.loads(body)["caches"]
    missing = [c["id"] for c in caches if c["id"] not in found]
    if missing:
        raise SystemExit(f"no decoded code for {missing}")
    json.dump({c["id"]: found[c["id"]] for c in caches}, open(args.out_json, "w"))
    with open(args.out_txt, "w") as f:
        for c in caches:
            f.write(f"{c['id']} {found[c['id']]} {c['latitude']:.7f} {c['longitude']:.7f}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("players")
    p.add_argument("--url", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--prefix", default="Player")
    p.add_argument("--out", required=True)
    p.add_argument("--txt", help="also write `id token` lines here, for the wrk scripts")
    m = sub.add_parser("mix")
    m.add_argument("--url", required=True, help="a server's URL, or several, comma-separated (players take turns)")
    m.add_argument("--players", required=True)
    m.add_argument("--codes", dest="codes_file", required=True, help="JSON {cache id: code}")
    m.add_argument("--connections", type=int, default=64)
    m.add_argument("--offset", type=int, default=0, help="use the players from this one on")
    m.add_argument("--duration", type=float, default=30)
    m.add_argument("--photo", help="a JPEG with a cache code and EXIF GPS, for photo claims")
    m.add_argument("--photo-weight", type=float, default=MIX["photo"])
    m.add_argument("--no-sse", dest="sse", action="store_false")
    m.add_argument("--timeout", type=float, default=30)
    m.add_argument("--journal", help="append what the server acknowledged here (JSON lines)")
    m.add_argument("--json", help="write the summary here")
    m.add_argument("--started", help="create this file when the load begins (for the crash loop's timing)")
    k = sub.add_parser("codes")
    k.add_argument("--url", required=True)
    k.add_argument("--decoded", required=True)
    k.add_argument("--out-json", required=True)
    k.add_argument("--out-txt", required=True)
    c = sub.add_parser("check")
    c.add_argument("--journal", required=True)
    c.add_argument("--events", required=True, help="geoqr ledger export --format jsonl output")
    args = ap.parse_args()
    if args.command == "check":
        sys.exit(check(args))
    if args.command == "codes":
        return codes(args)
    urls = [urllib.parse.urlsplit(u) for u in args.url.split(",")]
    args.servers = [(u.hostname, u.port or 80) for u in urls]
    args.host, args.port = args.servers[0]
    if args.command == "players":
        players = asyncio.run(make_players(args.host, args.port, args.count, args.prefix))
        with open(args.out, "w") as f:
            json.dump(players, f)
        if args.txt:
            with open(args.txt, "w") as f:
                f.writelines(f"{p['id']} {p['token']}\n" for p in players)
        print(f"joined {len(players)} players", file=sys.stderr)
    else:
        summary = asyncio.run(run_mix(args))
        sys.exit(1 if summary["errors"] and not os.environ.get("GEOQR_LOAD_ALLOW_ERRORS") else 0)


if __name__ == "__main__":
    main()
