import Foundation
import GRDB
import GeoQR
@testable import Ledger
import Testing

/// A ledger written by the previous release, whose `player-joined` bodies held the players'
/// PIN hashes (Fixtures/PreviousRelease/README.md says how it was made): opening it runs
/// migration "v3: credentials outside the chain".
@Suite("An old ledger's PIN hashes leave the chain")
struct LedgerMigrationTests {
    static let fixture = "Fixtures/PreviousRelease"
    /// After the lockout event 11 set for Zoë, and every event of the fixture.
    static let later = Date(timeIntervalSince1970: 1_800_000_000)

    /// A copy of the fixture in a new temporary folder, not yet opened as a store.
    func copyOfFixture() throws -> String {
        let source = try #require(Bundle.module.url(forResource: Self.fixture + "/ledger", withExtension: "sqlite"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(temporaryLedgerPrefix + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(SQLiteGameStore.fileName).path
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return path
    }

    /// The fixture's copy, migrated by opening it. The caller removes its folder.
    func migratedFixture() throws -> SQLiteGameStore {
        try SQLiteGameStore(path: try copyOfFixture(), configuration: .init(pinCost: 4))
    }

    /// What `geoqr ledger verify --json` printed before any of this code existed.
    func recorded() throws -> (events: Int, headHash: String) {
        let url = try #require(Bundle.module.url(forResource: Self.fixture + "/verify", withExtension: "json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return (try #require(json["events"] as? Int), try #require(json["headHash"] as? String))
    }

    @Test func theFixtureIsAnOldLedgerWithHashesInItsEvents() throws {
        let path = try copyOfFixture()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let old = try DatabaseQueue(path: path)
        let (migrations, bodies, head) = try old.read { db in
            (try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations"),
             try String.fetchAll(db, sql: "SELECT body FROM events WHERE kind = 'player-joined'"),
             try String.fetchOne(db, sql: "SELECT hash FROM events ORDER BY seq DESC LIMIT 1"))
        }
        #expect(!migrations.contains(CredentialsMigration.name))
        #expect(bodies.count == 3 && bodies.allSatisfy { $0.contains(#""pinHash":"$2b$10$"#) })
        #expect(head == (try recorded().headHash))
    }

    @Test func migratedLedgerVerifiesToTheSameHeadHash() async throws {
        let store = try migratedFixture()
        defer { store.removeFolder() }
        let report = try await store.verify()
        let before = try recorded()
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.events == before.events)
        #expect(report.headHash == before.headHash)
    }

    @Test func noEventOrDerivedRowHoldsAPINHashAfterwards() async throws {
        let store = try migratedFixture()
        defer { store.removeFolder() }
        let events = try await store.events(after: 0, limit: 100)
        #expect(events.count == 22)
        #expect(events.allSatisfy { !$0.body.contains("pinHash") && !$0.body.contains("$2") })
        #expect(events[1].body == #"{"name":"Bob","nameKey":"bob","player":"P2","team":"Gulls"}"#)
        let (columns, credentials) = try await store.pool.read { db in
            (try db.columns(in: "players").map(\.name), try Credential.order(Column("player_id")).fetchAll(db))
        }
        #expect(!columns.contains("pin_hash"))
        #expect(credentials.map(\.playerID) == ["P1", "P2", "P3"])
        #expect(credentials.map(\.chainedInSeq) == [1, 2, 3])
        #expect(credentials.allSatisfy { $0.pinHash.hasPrefix("$2b$10$") && $0.chainedPINHash == $0.pinHash })
    }

    @Test func oldPlayersSignInWithTheirOldPINs() async throws {
        let store = try migratedFixture()
        defer { store.removeFolder() }
        for (name, pin) in [("Ada", "4321"), ("bob", "9999"), ("Zoë", "2468")] {
            #expect(try await store.signIn(hunt: "demo", name: name, pin: pin, at: Self.later).name.lowercased() == name.lowercased())
        }
        await #expect(throws: GameRuleViolation.wrongPIN(remainingTries: 4)) {
            try await store.signIn(hunt: "demo", name: "Ada", pin: "0000", at: Self.later)
        }
        #expect(try await store.verify().isIntact)
    }

    @Test func resetOfAnOldPlayerKeepsTheChainVerifying() async throws {
        let store = try migratedFixture()
        defer { store.removeFolder() }
        // Zoë is still locked out a minute after her fifth wrong PIN (event 11).
        let locked = Date(millisecondsSince1970: 1_795_447_319_185)
        await #expect(throws: GameRuleViolation.self) {
            try await store.signIn(hunt: "demo", name: "Zoë", pin: "2468", at: locked)
        }
        _ = try await store.resetPIN(hunt: "demo", player: "P3", pin: "1357", by: "gm", at: locked)
        #expect(try await store.signIn(hunt: "demo", name: "Zoë", pin: "1357", at: locked).id == "P3")
        await #expect(throws: GameRuleViolation.wrongPIN(remainingTries: 4)) {
            try await store.signIn(hunt: "demo", name: "Zoë", pin: "2468", at: locked)
        }
        // The new hash signs in; the old one stays beside event 3, whose hash still covers it.
        let zoe = try #require(try await store.pool.read { db in try Credential.fetchOne(db, key: "P3") })
        #expect(zoe.seq == 23 && zoe.chainedInSeq == 3 && zoe.chainedPINHash != zoe.pinHash)
        let report = try await store.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.events == 24)
    }

    @Test func missingCredentialOfAnOldJoinIsNamed() async throws {
        let store = try migratedFixture()
        defer { store.removeFolder() }
        try await store.tamper("DELETE FROM credentials WHERE player_id = 'P2'")
        let report = try await store.verify()
        #expect(report.firstBadSeq == 2)
        #expect(report.problem?.contains("credentials") == true, "\(report.problem ?? "")")
        #expect(report.problem?.contains("\n") == false)
        #expect(report.headHash == (try recorded().headHash))
    }
}
