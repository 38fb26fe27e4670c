import Foundation
import GeoQR
@testable import Ledger
import Testing

/// Issue 26 §6: positions go once the hunt is over and its retention has passed; a forgotten
/// player's name, positions and words go; the chain verifies all the same, and the standings
/// do not move.
@Suite("Privacy: dropped positions and forgotten players")
struct PrivacyStoreTests {
    /// Where Ada and Bob stood: nowhere else in the ledger.
    static let adaAt = Coordinate(latitude: 40.64003, longitude: -8.65004)
    static let bobAt = Coordinate(latitude: 40.61234, longitude: -8.69876)
    static let hunt: Hunt = {
        var hunt = testHunt
        hunt.positionRetentionHours = 24
        return hunt
    }()

    /// Ada finds A1 from where she stood and reports it, the game master answers; Bob claims A2
    /// from too far, then finds B1.
    func played(_ kind: StoreKind, adaName: String = "Ada") async throws -> (store: any TestLedger, ada: Player, bob: Player) {
        let store = try await makeStore(kind)
        let ada = try await store.player(adaName)
        let bob = try await store.player("Bob")
        let near = ClaimRecord(player: ada.id, hunt: testHunt.id, cache: "A1", time: t0, location: Self.adaAt, method: .link,
                               verdict: .claimable)
        guard case .found = try await store.record(near, in: testHunt) else { throw TestFailure("Ada's find was not recorded") }
        let far = ClaimRecord(player: bob.id, hunt: testHunt.id, cache: "A2", time: t0.addingTimeInterval(60), location: Self.bobAt,
                              method: .link, verdict: .tooFar)
        _ = try await store.record(far, in: testHunt)
        try await store.found(bob, "B1", minutes: 2)
        let report = try await store.fileReport(cache: "A1", kind: .damaged, text: "Zebra lid smashed 7781",
                                                photoSHA256: String(repeating: "ab", count: 32), by: ada.id, in: testHunt,
                                                at: t0.addingTimeInterval(150))
        _ = try await store.resolveReport(hunt: testHunt.id, id: report.id, resolution: "Replaced lid 4417", by: "gm",
                                          at: t0.addingTimeInterval(160))
        return (store, ada, bob)
    }

    /// Every value of every table, as text (reals in Swift's shortest form).
    static func everyValue(_ store: any TestLedger, _ kind: StoreKind) async throws -> String {
        let list = kind == .sqlite ? "SELECT name FROM sqlite_master WHERE type = 'table'"
            : "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        var out = ""
        for row in try await store.rows(list) {
            guard case .text(let table)? = row.first else { continue }
            for values in try await store.rows("SELECT * FROM \(table)") {
                for value in values {
                    switch value {
                    case .text(let s): out += s
                    case .real(let d): out += "\(d)"
                    case .integer(let n): out += "\(n)"
                    case .null: break
                    }
                    out += "\t"
                }
            }
        }
        return out
    }

    /// The bytes of a SQLite ledger's file and its log.
    static func fileBytes(_ store: any TestLedger) -> Data? {
        guard let path = (store as? SQLiteGameStore)?.path else { return nil }
        // Read through a file handle: FileManager.contents(atPath:) leaks its 4 KB buffer when
        // the file is empty (the log after a truncating checkpoint), which fails the leak check.
        return [path, path + "-wal"].compactMap { file in
            FileHandle(forReadingAtPath: file).map { handle in
                defer { try? handle.close() }
                return (try? handle.readToEnd()) ?? Data()
            }
        }.reduce(Data(), +)
    }

    /// A real as SQLite writes it in a record: 8 bytes, big-endian.
    static func realBytes(_ value: Double) -> Data { withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) } }

    @Test(arguments: StoreKind.tested)
    func positionsAreDroppedOnlyAfterTheRetentionAndTheChainStillVerifies(_ kind: StoreKind) async throws {
        let (store, _, _) = try await played(kind)
        defer { store.removeFolder() }
        let hour: TimeInterval = 3600
        await #expect(throws: GameRuleViolation.huntNotEnded("TEST")) {
            try await store.dropPositions(in: Self.hunt, by: "gm", at: t0.addingTimeInterval(hour))
        }
        try await store.setHuntRunning(false, hunt: "TEST", by: "gm", at: t0.addingTimeInterval(hour))
        await #expect(throws: GameRuleViolation.positionsKept(until: t0.addingTimeInterval(25 * hour))) {
            try await store.dropPositions(in: Self.hunt, by: "gm", at: t0.addingTimeInterval(25 * hour - 1))
        }
        #expect(try await Self.everyValue(store, kind).contains("40.64003"), "nothing to drop: the test tests nothing")
        let standings = try await store.leaderboard(hunt: "TEST")
        let events = try await store.headSeq()

        let dropped = try #require(try await store.dropPositions(in: Self.hunt, by: "gm", at: t0.addingTimeInterval(25 * hour)))
        try await store.scrub()
        #expect(dropped == PositionsDropped(claims: 3, endedMs: t0.addingTimeInterval(hour).millisecondsSince1970, retentionHours: 24))
        for table in ["finds", "attempts"] {
            #expect(try await store.count("SELECT COUNT(*) FROM \(table) WHERE lat IS NOT NULL OR lon IS NOT NULL") == 0)
        }
        #expect(try await store.count("SELECT COUNT(*) FROM items WHERE found_lat IS NOT NULL OR found_lon IS NOT NULL") == 0)
        let values = try await Self.everyValue(store, kind)
        for number in ["40.64003", "-8.65004", "40.61234", "-8.69876", "40.64", "-8.6382"] {
            #expect(!values.contains(number), "a table still holds \(number)")
        }
        if let bytes = Self.fileBytes(store) {
            for number in [40.64003, -8.65004, 40.61234, -8.69876] {
                #expect(bytes.range(of: Data("\(number)".utf8)) == nil, "the file still holds \(number) as text")
                #expect(bytes.range(of: Self.realBytes(number)) == nil, "the file still holds \(number) as a real")
            }
        }
        let claims = try await store.events(after: 0, limit: 1000).filter { ["claim-attempted", "find-recorded"].contains($0.kind) }
        #expect(claims.count == 3)
        for claim in claims {
            let reading = EventSeal.read(claim.body)
            #expect(reading.hasPrivatePart && !reading.holdsPrivatePart, "event \(claim.seq) still holds its position")
        }
        let verification = try await store.verify()
        #expect(verification.isIntact, "\(verification.problem ?? "")")
        #expect(try await store.leaderboard(hunt: "TEST") == standings)
        #expect(try await store.headSeq() == events + 1)

        // Again: nothing left, nothing recorded.
        #expect(try await store.dropPositions(in: Self.hunt, by: "gm", at: t0.addingTimeInterval(30 * hour)) == nil)
        #expect(try await store.headSeq() == events + 1)
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested)
    func aHuntPastItsEndDropsWithoutAStop(_ kind: StoreKind) async throws {
        let (store, _, _) = try await played(kind)
        defer { store.removeFolder() }
        var hunt = Self.hunt
        hunt.end = t0.addingTimeInterval(600)
        await #expect(throws: GameRuleViolation.positionsKept(until: t0.addingTimeInterval(600 + 24 * 3600))) {
            try await store.dropPositions(in: hunt, by: "gm", at: t0.addingTimeInterval(3600))
        }
        #expect(try await store.dropPositions(in: hunt, by: "gm", at: t0.addingTimeInterval(600 + 24 * 3600))?.claims == 3)
    }

    @Test(arguments: StoreKind.tested)
    func aForgottenPlayerLeavesNoNameNoPositionNoWordsAndTheChainVerifies(_ kind: StoreKind) async throws {
        let (store, ada, bob) = try await played(kind, adaName: "Zebulon Quartz")
        defer { store.removeFolder() }
        try await store.keepSession(hunt: "TEST", player: ada.id, tokenSHA256: "feed", at: t0)
        _ = try await store.signIn(hunt: "TEST", name: "Zebulon Quartz", pin: "1234", at: t0.addingTimeInterval(200))
        let before = try await store.leaderboard(hunt: "TEST")
        let secrets = ["Zebulon", "zebulon", "Zebra lid", "Replaced lid", "40.64003", "-8.65004"]
        let values = try await Self.everyValue(store, kind)
        for secret in secrets { #expect(values.contains(secret), "\(secret) was never stored: the test tests nothing") }

        let forgotten = try await store.forgetPlayer(hunt: "TEST", player: "Zebulon Quartz", by: "gm", at: t0.addingTimeInterval(300))
        try await store.scrub()
        #expect(forgotten.player == ada.id && forgotten.pseudonym == "Forgotten player 1" && !forgotten.alreadyForgotten)
        #expect(forgotten.events == 4, "the join, the find, the report and its answer")
        #expect(forgotten.photos == [String(repeating: "ab", count: 32)])

        let after = try await Self.everyValue(store, kind)
        for secret in secrets { #expect(!after.contains(secret), "a table still holds \(secret)") }
        #expect(after.contains("40.61234"), "Bob was not forgotten")
        if let bytes = Self.fileBytes(store) {
            for secret in ["Zebulon", "zebulon", "Zebra lid", "Replaced lid", "40.64003"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "the file still holds \(secret)")
            }
            #expect(bytes.range(of: Self.realBytes(40.64003)) == nil, "the file still holds Ada's latitude as a real")
        }
        let verification = try await store.verify()
        #expect(verification.isIntact, "\(verification.problem ?? "")")
        let events = try await store.events(after: 0, limit: 1000)
        for form in LedgerExportForm.allCases {
            let export = try LedgerPublishedExportTests.export(events, form)
            let report = try LedgerExportVerifier.verify(file: export)
            #expect(report.isIntact, "\(form): \(report.problem ?? "")")
            let outsider = try LedgerPublishedExportTests.outsiderVerdict(export)
            #expect(outsider.status == 0, "\(form): \(outsider.report)")
            #expect(!String(decoding: export, as: UTF8.self).contains("Zebulon"))
        }

        // The points stay, under the pseudonym; Bob is untouched.
        let standings = try await store.leaderboard(hunt: "TEST")
        #expect(standings.map(\.points) == before.map(\.points) && standings.map(\.finds) == before.map(\.finds))
        #expect(standings.first { $0.player == ada.id }?.name == "Forgotten player 1")
        #expect(standings.first { $0.player == bob.id } == before.first { $0.player == bob.id })

        // Nobody signs in as them, by name or id, and their session is gone.
        for name in ["Zebulon Quartz", ada.id, "Forgotten player 1"] {
            await #expect(throws: GameRuleViolation.self) {
                try await store.signIn(hunt: "TEST", name: name, pin: "1234", at: t0.addingTimeInterval(400))
            }
        }
        #expect(try await store.sessionPlayer(hunt: "TEST", tokenSHA256: "feed") == nil)
        #expect(try await store.count("SELECT COUNT(*) FROM credentials WHERE player_id = '\(ada.id)'") == 0)

        // Again: nothing more.
        let head = try await store.headSeq()
        let again = try await store.forgetPlayer(hunt: "TEST", player: ada.id, by: "gm", at: t0.addingTimeInterval(500))
        #expect(again.alreadyForgotten && again.pseudonym == "Forgotten player 1")
        #expect(try await store.headSeq() == head)
        // The name is free again; the next forgotten player is the second.
        let back = try await store.player("Zebulon Quartz")
        #expect(try await store.forgetPlayer(hunt: "TEST", player: back.id, by: "gm", at: t0.addingTimeInterval(600)).pseudonym
                == "Forgotten player 2")
        #expect(try await store.verify().isIntact)
    }
}
