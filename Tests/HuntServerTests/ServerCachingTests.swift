import Foundation
import GeoQR
import HTTPTypes
@testable import HuntServer
import Ledger
import Play
import Testing

/// What the server keeps between requests so that polling phones do not each cost a round
/// trip to SQLite, and the hand-written JSON of the most polled answers.
@Suite("Kept between requests")
struct ServerCachingTests {
    /// The hand-written cache list, leaderboard and claim answer mean what `JSONEncoder` writes:
    /// every optional present and absent, awkward text, fractional and whole numbers.
    @Test func handWrittenJSONMeansWhatJSONEncoderWrites() throws {
        let texts = ["A1", "Quote \" and \\ slash /", "tab\tline\nend\u{1}", "Café ☕️ 北", ""]
        var views: [CacheView] = []
        for i in 0..<40 {
            let some = i % 2 == 0, text = texts[i % texts.count]
            views.append(CacheView(
                id: "C\(i)", name: text, trail: some ? text : nil, difficulty: 1.5 + Double(i % 4), terrain: Double(i % 5),
                points: i * 7 - 3, radiusM: [40, 12.5, 0.1, 1e6][i % 4], hint: i % 3 == 0 ? text : nil,
                hintCost: i % 3 == 1 ? i : nil, hintRevealed: i % 3 == 1 ? some : nil, found: some, next: i % 7 == 3, disabled: i % 3 == 1, flagged: i % 5 == 2,
                latitude: some ? 40.6303 + Double(i) / 7 : nil, longitude: some ? -8.6575 - Double(i) / 3 : nil,
                distanceM: i % 4 == 0 ? nil : Double(i) * 123.4, bearingDeg: i % 4 == 0 ? nil : Double(i * 9 % 360),
                direction: i % 4 == 0 ? nil : "north-east", challenge: i % 3 == 2 ? "photo" : nil))
        }
        try expectSameMeaning(CacheList(caches: views), key: "caches", items: views) { $0.write(to: &$1) }
        let rows: [[String: Any]] = (0..<30).map {
            ["player": "P\($0)", "name": texts[$0 % texts.count], "points": $0 * 10 - 5, "finds": $0]
                .merging($0 % 3 == 0 ? [:] : ["team": texts[$0 % 4]]) { a, _ in a }
        }
        let standings = try JSONDecoder().decode([Standing].self, from: JSONSerialization.data(withJSONObject: rows))
        let teams = TeamStanding.rank(standings)
        #expect(teams.count == 4)
        let placings = Results.ranked(standings)
        try expectSameMeaning(Leaderboard(standings: placings, teams: teams), key: "standings", items: placings) { $0.write(to: &$1) }
        try expectSameMeaning(Leaderboard(standings: placings, teams: teams), key: "teams", items: teams) { $0.write(to: &$1) }

        // The claim answer: both encoders are made from one field list; every property
        // must be in it, and both must write each the same.
        let hunt = try HuntParser.parse(Data("""
            {"id": "T", "name": "T", "caches": [{"id": "A1", "name": "Oak", "lat": 40.6, "lon": -8.6}]}
            """.utf8), file: "t.json").hunt
        let secret = HuntSecret.random()
        let code = CacheCode.payload(hunt: "T", cache: "A1", secret: secret)
        for i in 0..<24 {
            let text = texts[i % texts.count]
            let claim = Claim(payloads: [code], location: ClaimLocation(coordinate: Coordinate(latitude: 40.6001, longitude: -8.6),
                                                                        accuracy: 3.5, source: .browser),
                              claimedAt: Date(timeIntervalSince1970: Double(i) * 1e6 + 0.75))
            var answer = ClaimAnswers.judging(claim, in: hunt, secret: secret).best
            answer.otherHunt = text; answer.reason = text; answer.cacheName = text; answer.message = text
            answer.outcome = [.found, .alreadyFound, .attempt][i % 3]
            answer.find = "F\(i)"; answer.points = i * 3 - 7; answer.firstToFind = i % 2 == 0; answer.card = "C\(i)"
            answer.lateSeconds = i * 61
            let properties = Mirror(reflecting: answer).children.compactMap(\.label)
            // Every property, and what the verdict says of itself for the pages.
            #expect(Set(answer.fields.map { "\($0.key)" }) == Set(properties).union(["refused", "offerTypedCode"]),
                    "every property is in the one description")
            var mine = JSONWriter()
            answer.write(to: &mine)
            #expect(try JSONSerialization.jsonObject(with: JSONEncoder().encode(answer)) as? NSDictionary
                    == JSONSerialization.jsonObject(with: Data(mine.bytes)) as? NSDictionary)
        }
    }

    /// `value` through `JSONEncoder`, and the array of `items` that `write` puts under `key`,
    /// parse to the same thing.
    private func expectSameMeaning<Item>(_ value: some Encodable, key: String, items: [Item],
                                         write: (Item, inout JSONWriter) -> Void) throws {
        var mine = JSONWriter()
        mine.beginArray()
        for item in items { write(item, &mine) }
        mine.endArray()
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? NSDictionary
        let written = try JSONSerialization.jsonObject(with: Data(mine.bytes)) as? NSArray
        #expect(written != nil && encoded?[key] as? NSArray == written)
    }

    /// The cache list and leaderboard over HTTP are the hand-written ones, and parse.
    @Test func polledAnswersAreJSON() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada \"the\" finder")
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            let list = try await client.call(.get, "/api/caches?latitude=40.63&longitude=-8.657", token: ada.token)
            #expect(list.headers[.contentType] == "application/json; charset=utf-8")
            let caches = try #require(list["caches"] as? [[String: Any]])
            #expect(caches.map { $0["id"] as? String } == ["A1", "B1"])
            #expect(caches.map { $0["found"] as? Bool } == [true, false])
            let board = try await client.call(.get, "/api/leaderboard")
            let first = try #require((board["standings"] as? [[String: Any]])?.first)
            #expect(first["name"] as? String == "Ada \"the\" finder" && first["finds"] as? Int == 1)
        }
    }

    /// Past its age a kept value is answered at once while one read fetches the next; after
    /// an invalidation the next answer waits for a read. (The second read is held at a gate,
    /// so the test does not depend on how fast this machine is.)
    @Test func aSnapshotPastItsAgeAnswersAtOnceAndRefreshesBehind() async throws {
        let reads = ReadCounter(), gate = Gate()
        let snapshot = CachedRead(maxAge: .milliseconds(300)) {
            let n = await reads.next()
            if n == 2 { await gate.passage() }
            return n
        }
        #expect(try await snapshot.value() == 1)
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await snapshot.value() == 1, "stale, answered while the next read runs")
        #expect(try await snapshot.value() == 1, "one read at a time")
        await gate.open()
        var seen = 1
        for _ in 0..<400 where seen == 1 {
            try await Task.sleep(for: .milliseconds(10))
            seen = try await snapshot.value()
        }
        #expect(seen == 2, "the background read was kept")
        await snapshot.invalidate()
        #expect(try await snapshot.value() > 2, "after a change, never the old value")
    }

    /// A stop or a void recorded by another process (`geoqr gm …` on the same data
    /// directory) reaches the running server within about a second: the void by the ledger
    /// follower, which marks the kept finds changed (they are otherwise kept for a minute).
    @Test func anotherProcesssStopAndVoidAreSeenSoon() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let find = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            #expect(find["verdict"] as? String == "claimable")
            func found() async throws -> Bool? {
                let list = try await client.call(.get, "/api/caches", token: ada.token)
                return (list["caches"] as? [[String: Any]])?.first { $0["id"] as? String == "A1" }?["found"] as? Bool
            }
            #expect(try await found() == true, "this server's find shows at once")

            let other = try SQLiteGameStore(directory: h.directory, configuration: .init(pinCost: 4, synchronousFull: false))
            _ = try await other.voidFind(hunt: "TEST", id: try #require(find["find"] as? String), reason: "test",
                                         by: "gm", at: Date())
            // Only the list is asked: a claim meanwhile would mark Ada's finds changed itself.
            var stillFound = true
            for _ in 0..<100 where stillFound {
                try await Task.sleep(for: .milliseconds(50))
                stillFound = try await found() ?? true
            }
            #expect(!stillFound, "the void reached the cache list")

            try await other.setHuntRunning(false, hunt: "TEST", by: "gm", at: Date())
            var refused: String?
            for _ in 0..<100 where refused == nil {
                try await Task.sleep(for: .milliseconds(50))
                refused = try await client.claim(h.code("B1"), token: ada.token, at: Harness.b1).error
            }
            #expect(refused == "hunt-stopped")
        }
    }

    /// A checked sign-in is kept for a minute (a phone's poll costs no read), and a session
    /// that ends elsewhere ends here at once: a sign-out on another server through the
    /// servers' news, a PIN reset by another process (`geoqr gm reset-pin`) through the ledger.
    @Test func keptSignInsEndWhereverTheirSessionEnds() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let bob = try await client.join("Bob")
            #expect(try await client.call(.get, "/api/caches", token: ada.token).status == .ok)
            #expect(try await client.call(.get, "/api/caches", token: bob.token).status == .ok)
            let other = try SQLiteGameStore(directory: h.directory, configuration: .init(pinCost: 4, synchronousFull: false))
            // Ended in the store with no event and no news: the sign-in kept here still holds.
            try await other.endSessions(hunt: "TEST", player: bob.id)
            #expect(try await client.call(.get, "/api/caches", token: bob.token).status == .ok, "kept")
            // Bob signed out on another server, which says so.
            let news = ServerNews(origin: "B", hunt: "TEST", audience: .gameMaster, name: ServedHunt.signedOutNews,
                                  json: #"{"player":"\#(bob.id)"}"#)
            await h.session.heard(news: String(decoding: try JSONEncoder().encode([news]), as: UTF8.self))
            #expect(try await client.call(.get, "/api/caches", token: bob.token).status == .unauthorized)

            _ = try await other.resetPIN(hunt: "TEST", player: "Ada", pin: "2468", by: "gm", at: Date())
            var status = HTTPResponse.Status.ok
            for _ in 0..<100 where status == .ok {
                try await Task.sleep(for: .milliseconds(50))
                status = try await client.call(.get, "/api/caches", token: ada.token).status
            }
            #expect(status == .unauthorized, "the follower ended Ada's kept sign-in")
        }
    }

    @Test func hexIsTwoLowerCaseDigitsAByte() {
        let bytes: [UInt8] = [0, 1, 0x0f, 0x10, 0x7f, 0x80, 0xab, 0xff]
        #expect(bytes.hex == "00010f107f80abff")
        #expect([UInt8]().hex == "")
    }
}

private actor Gate {
    private var isOpen = false
    func open() { isOpen = true }
    func passage() async {
        while !isOpen { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

extension ServerCachingTests {
    /// Sign-ins checked together are kept for times spread between half a minute and a minute,
    /// so they are not all checked against the store again in the same moment.
    @Test func signInsCheckedTogetherExpireSpreadOverHalfTheirAge() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let signIns = SignIns(store: h.session.store, hunt: Harness.hunt.id)
            var tokens: [String] = []
            for _ in 0..<200 { tokens.append(try await signIns.issue(for: ada.id, at: Date())) }
            let checked = CheckedSignIns(signIns)
            let before = ContinuousClock.now
            for token in tokens { #expect(try await checked.player(for: token) == ada.id) }
            let after = ContinuousClock.now
            let kept = tokens.compactMap { checked.keptUntil($0) }
            try #require(kept.count == tokens.count)
            let maxAge = CheckedSignIns.maxAge
            #expect(kept.allSatisfy { $0 >= before + maxAge / 2 && $0 <= after + maxAge }, "kept between half the age and all of it")
            let spread = kept.max()! - kept.min()!
            #expect(spread >= maxAge / 3, "200 sign-ins checked at once expire over \(spread), not together")
        }
    }
}

private actor ReadCounter {
    private var n = 0
    func next() -> Int { n += 1; return n }
}
