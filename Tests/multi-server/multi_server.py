#!/usr/bin/env python3
"""Plays one hunt across two `geoqr serve` processes on one PostgreSQL (Tests/multi-server/run.sh
starts them) and checks that either server answers any player:

  python3 multi_server.py --a URL --b URL --codes codes.json

  1. a player joins on A, claims on B, signs in on B and is known on A
  2. a find made on A reaches a live stream open on B within a second, with the event's id;
     B's stream reconnecting to A with Last-Event-ID hears the finds made meanwhile, once each
  3. wrong PINs from one address count on both servers: five, spread over A and B, lock it
  4. the game master stops the hunt on A: B refuses claims; starts it on B: A takes them
  5. 200 trade accepts at once, spread over both servers, for 10 cards offered 20 times each:
     exactly one accept per card, and every card has one owner
  6. a session ended on A (a sign-out, a PIN reset) is refused on B within a second, though B
     keeps the sign-ins it checked for a minute

Each check prints one line; the exit status is 1 when any failed. Standard library only; the
HTTP client is Benchmarks/load/geoqr_load.py's.
"""
import argparse, asyncio, json, os, sys, time, urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Benchmarks", "load"))
from geoqr_load import Conn, jbody  # noqa: E402

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


class Server:
    def __init__(self, url):
        u = urllib.parse.urlsplit(url)
        self.host, self.port, self.url = u.hostname, u.port, url

    async def call(self, method, path, body=None, token=None, headers=None):
        conn = Conn(self.host, self.port)
        h = dict(headers or {})
        if token:
            h["Authorization"] = f"Bearer {token}"
        data = b""
        if body is not None:
            data, h["Content-Type"] = jbody(body), "application/json"
        try:
            status, reply = await conn.request(method, path, data, h, timeout=30)
        finally:
            conn.close()
        return status, (json.loads(reply) if reply.strip().startswith(b"{") else {})

    async def join(self, name, pin="2468"):
        # 200 joins at once fill the PIN-hashing queue: a busy server answers 503 server-busy,
        # and a phone tries again after a moment, as this does.
        for _ in range(20):
            status, reply = await self.call("POST", "/api/join", {"name": name, "pin": pin})
            if status != 503:
                break
            await asyncio.sleep(1)
        if status != 201:
            raise SystemExit(f"join {name} on {self.url}: {status} {reply}")
        return reply["player"]["id"], reply["token"]

    async def claim(self, token, code, at):
        return await self.call("POST", "/api/claims", {"code": code, "latitude": at[0], "longitude": at[1], "accuracy": 5},
                               token=token)


class Stream:
    """A live stream read on a raw socket: (id, event name, data) as each arrives, and when."""

    def __init__(self, server, token, last_event_id=None, admin=False):
        self.server, self.token, self.last, self.admin = server, token, last_event_id, admin
        self.events, self.arrived = [], asyncio.Event()

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.server.host, self.server.port)
        extra = f"Last-Event-ID: {self.last}\r\n" if self.last is not None else ""
        if self.admin:   # the control room's stream: the admin token in the header
            request = f"GET /api/admin/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {self.token}\r\n{extra}\r\n"
        else:
            request = f"GET /api/live?token={self.token} HTTP/1.1\r\nHost: x\r\n{extra}\r\n"
        self.writer.write(request.encode())
        self.task = asyncio.create_task(self._read())

    async def _read(self):
        buffer = b""
        while True:
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                return
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                fields = {}
                for line in block.decode("utf-8", "replace").splitlines():
                    key, _, value = line.partition(": ")
                    fields[key.strip()] = value
                if "event" in fields:
                    self.events.append((int(fields["id"]) if "id" in fields else None, fields["event"],
                                        fields.get("data", ""), time.monotonic()))
                    self.arrived.set()

    async def wait_for(self, test, seconds):
        deadline = time.monotonic() + seconds
        while True:
            for event in self.events:
                if test(event):
                    return event
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    def close(self):
        self.task.cancel()
        self.writer.close()


async def main(args):
    a, b = Server(args.a), Server(args.b)
    codes = json.load(open(args.codes))
    status, hunt = await a.call("GET", "/api/caches")
    caches = {c["id"]: (c["latitude"], c["longitude"]) for c in hunt["caches"]}
    ids = sorted(caches)
    run = os.urandom(3).hex()

    # 1. Join on A, claim on B.
    ada, ada_token = await a.join(f"Ada{run}")
    status, answer = await b.claim(ada_token, codes[ids[0]], caches[ids[0]])
    check(status == 200 and answer.get("verdict") == "claimable",
          f"joined on A, claimed {ids[0]} on B with A's token: {status} {answer.get('verdict')}")
    status, me = await a.call("GET", "/api/me", token=ada_token)
    status_b, signed = await b.call("POST", "/api/signin", {"name": f"ada{run}", "pin": "2468"})
    status_c, me_b = await a.call("GET", "/api/me", token=signed.get("token"))
    check(status == 200 and status_b == 200 and status_c == 200 and me_b.get("player", me_b).get("id", ada) == ada,
          f"signed in on B, known on A: /api/me {status}, sign-in {status_b}, /api/me with B's token on A {status_c}")

    # 2. A find on A reaches B's stream within a second, in a digest of finds; a player's own
    # find on A reaches its stream on B as ledger news; a reconnection to A resumes from it.
    bo, bo_token = await b.join(f"Bo{run}")
    stream = Stream(b, bo_token)
    await stream.open()
    await stream.wait_for(lambda e: e[1] == "standings", 5)
    cy, cy_token = await a.join(f"Cy{run}")
    sent = time.monotonic()
    status, answer = await a.claim(cy_token, codes[ids[1]], caches[ids[1]])

    def names(event, player):
        return event[1] == "finds" and any(f["player"] == player for f in json.loads(event[2])["finds"])
    heard = await stream.wait_for(lambda e: names(e, cy), 5)
    delay = (heard[3] - sent) if heard else None
    check(status == 200 and heard is not None and delay < 1.0
          and json.loads(heard[2])["through"] == int(answer.get("find", "F0")[1:]),
          f"a find made on A reached the stream open on B in {delay * 1000:.0f} ms, in a digest through its seq" if heard
          else f"a find made on A ({status}) never reached the stream open on B")
    status, answer = await a.claim(bo_token, codes[ids[1]], caches[ids[1]])
    own = await stream.wait_for(lambda e: e[1] == "find" and json.loads(e[2]).get("player") == bo, 5)
    check(own is not None and own[0] == int(answer.get("find", "F0")[1:]),
          f"Bo's own find on A reached his stream on B as ledger news, id {own[0] if own else None}")
    stream.close()
    last = max(e[0] for e in stream.events if e[0] is not None)
    missed = []
    for cache in ids[2:4]:
        status, answer = await b.claim(bo_token, codes[cache], caches[cache])
        missed.append(int(answer.get("find", "F0")[1:]))
    resumed = Stream(a, bo_token, last_event_id=last)
    await resumed.open()
    await resumed.wait_for(lambda e: e[1] == "standings", 5)
    status, answer = await b.claim(ada_token, codes[ids[1]], caches[ids[1]])
    await resumed.wait_for(lambda e: names(e, ada), 5)
    resumed.close()
    news = [e for e in resumed.events if e[0] is not None]
    seqs = [e[0] for e in news]
    finds = [json.loads(e[2]) for e in news if e[1] == "find"]
    check([f["player"] for f in finds] == [bo, bo] and seqs == missed and all(s > last for s in seqs)
          and any(names(e, ada) for e in resumed.events),
          f"B's stream reconnected to A from id {last}: heard ids {seqs} (Bo's finds made meanwhile: {missed}), "
          f"then Ada's find in a digest")

    # 2b. What the ledger does not hold goes to every server too: a message sent on A reaches
    # a phone on B; a claim refused on B shows in the control room open on A.
    phone, room = Stream(b, bo_token), Stream(a, args.admin, admin=True)
    await phone.open()
    await room.open()
    await phone.wait_for(lambda e: e[1] == "standings", 5)
    await room.wait_for(lambda e: e[1] == "standings", 5)
    status, _ = await a.call("POST", "/api/admin/broadcast", {"message": f"Lunch at noon {run}"},
                             headers={"Authorization": f"Bearer {args.admin}"})
    far = (caches[ids[0]][0] + 0.01, caches[ids[0]][1])
    status_far, _ = await b.claim(cy_token, codes[ids[0]], far)
    message = await phone.wait_for(lambda e: e[1] == "broadcast" and run in e[2], 5)
    claim = await room.wait_for(lambda e: e[1] == "claim" and json.loads(e[2]).get("player") == cy
                                and json.loads(e[2]).get("verdict") == "too-far", 5)
    phone.close()
    room.close()
    check(status == 200 and status_far < 500 and message is not None and claim is not None,
          f"a message sent on A reached a phone on B ({'yes' if message else 'no'}); a too-far claim on B "
          f"reached the control room on A ({'yes' if claim else 'no'})")

    # 3. Wrong PINs from one address count on both servers.
    name = f"Dee{run}"
    await a.join(name, pin="1357")
    refusals = []
    for i in range(5):
        status, reply = await (a if i % 2 == 0 else b).call("POST", "/api/signin", {"name": name, "pin": "0000"})
        refusals.append(status)
    status_a, reply_a = await a.call("POST", "/api/signin", {"name": name, "pin": "1357"})
    status_b, reply_b = await b.call("POST", "/api/signin", {"name": name, "pin": "1357"})
    check(refusals[:4] == [401] * 4 and status_a == 429 and status_b == 429,
          f"5 wrong PINs over A and B ({refusals}) lock the address out of {name} on both: {status_a} {status_b}")

    # 4. Stop on A, claims refused on B; start on B, claims taken on A.
    admin = {"Authorization": f"Bearer {args.admin}"}
    status, _ = await a.call("POST", "/api/admin/hunt/stop", headers=admin)
    eve, eve_token = await b.join(f"Eve{run}")
    status_b, answer = await b.claim(eve_token, codes[ids[0]], caches[ids[0]])
    status_s, _ = await b.call("POST", "/api/admin/hunt/start", headers=admin)
    status_a, answer_a = await a.claim(eve_token, codes[ids[0]], caches[ids[0]])
    check(status == 200 and status_b == 409 and answer.get("error") == "hunt-stopped" and status_s == 200 and status_a == 200,
          f"stopped on A: B refuses a claim ({status_b} {answer.get('error')}); started on B: A takes it ({status_a})")

    # 5. 200 accepts at once over both servers, 20 for each of 10 cards.
    holders = [await (a if i % 2 else b).join(f"Holder{i}x{run}") for i in range(10)]
    takers = []
    async def join_taker(i):
        takers.append(await (a if i % 2 else b).join(f"Taker{i}x{run}"))
    await asyncio.gather(*(join_taker(i) for i in range(200)))
    cards = []
    for i, (holder, token) in enumerate(holders):
        status, answer = await (a, b)[i % 2].claim(token, codes[ids[-1]], caches[ids[-1]])
        cards.append(answer.get("card", {}).get("id") if isinstance(answer.get("card"), dict) else answer.get("card"))
    if not all(cards):
        status, collection = await a.call("GET", "/api/me/collection", token=holders[0][1])
        raise SystemExit(f"holders' cards: {cards} (a collection reads {collection})")
    offers = []
    for i, (taker, _) in enumerate(takers):
        holder, token = holders[i % 10]
        status, offer = await (a, b)[i % 2].call("POST", "/api/trades", {"to": taker, "give": [cards[i % 10]], "receive": []},
                                                  token=token)
        if status != 201:
            raise SystemExit(f"offer {i}: {status} {offer}")
        offers.append(offer["id"])
    async def accept(i):
        return await (b, a)[i % 2].call("POST", f"/api/trades/{offers[i]}/accept", token=takers[i][1])
    started = time.monotonic()
    results = await asyncio.gather(*(accept(i) for i in range(200)))
    seconds = time.monotonic() - started
    accepted = [i for i, (status, reply) in enumerate(results) if status == 200 and reply.get("state") == "accepted"]
    other = sorted({status for status, reply in results if not (status == 200 and reply.get("state") == "accepted")})
    per_card = {}
    for i in accepted:
        per_card[i % 10] = per_card.get(i % 10, 0) + 1
    owners = {card: [] for card in cards}
    for pid, token in holders + takers:
        status, collection = await a.call("GET", "/api/me/collection", token=token)
        for card in collection.get("cards", []):
            if card["id"] in owners:
                owners[card["id"]].append(pid)
    check(len(accepted) == 10 and all(n == 1 for n in per_card.values()) and other in ([409], [])
          and all(len(who) == 1 for who in owners.values()),
          f"200 accepts over A and B in {seconds:.1f} s: {len(accepted)} accepted (one per card: {sorted(per_card.values())}), "
          f"the rest {other}; owners per card {sorted(len(w) for w in owners.values())}")

    # 6. Each server keeps the sign-ins it checked for a minute; a session ended on the other
    #    ends there within a second: a sign-out (the servers' news), a PIN reset (the ledger).
    fay, fay_token = await a.join(f"Fay{run}")
    gus, gus_token = await b.join(f"Gus{run}")
    kept = [(await s.call("GET", "/api/me", token=t))[0] for s in (a, b) for t in (fay_token, gus_token)]
    status_out, _ = await a.call("POST", "/api/signout", token=fay_token)
    status_pin, _ = await a.call("POST", f"/api/admin/players/{gus}/pin", {"pin": "1357"}, headers=admin)
    async def refused_within(server, token, seconds):
        started = time.monotonic()
        while True:
            status, _ = await server.call("GET", "/api/me", token=token)
            if status == 401 or time.monotonic() - started > seconds:
                return status, time.monotonic() - started
            await asyncio.sleep(0.05)
    (out_b, out_s), (pin_b, pin_s) = await refused_within(b, fay_token, 1.0), await refused_within(b, gus_token, 1.0)
    check(kept == [200] * 4 and status_out == 200 and status_pin == 200 and out_b == 401 and pin_b == 401,
          f"signed out on A: B refuses the token after {out_s:.2f} s ({out_b}); PIN reset on A: B refuses the old "
          f"session after {pin_s:.2f} s ({pin_b})")
    print("multi-server: " + ("OK" if not failures else f"{len(failures)} FAILED"))
    return 1 if failures else 0


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--codes", required=True)
    p.add_argument("--admin", required=True, help="the game master's token")
    sys.exit(asyncio.run(main(p.parse_args())))
