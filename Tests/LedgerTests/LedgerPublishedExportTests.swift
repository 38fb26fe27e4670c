import Foundation
import GeoQR
@testable import Ledger
import Testing

/// Issue 24 §7: the published export holds no position, report text or PIN history, and
/// anyone can still recompute every hash of it; the complete one holds everything.
@Suite("A ledger one can publish")
struct LedgerPublishedExportTests {
    /// Where players stood, and what they and the game master wrote: none may be published.
    static let secrets = ["40.64003", "-8.65004", "40.61234", "-8.69876", "Zebra lid smashed 7781", "Replaced lid 4417"]

    /// A ledger with a find, a refused claim, a report with text resolved, wrong PINs, a PIN
    /// reset and a trackable's trip (its distance is public).
    func playedLedger(_ kind: StoreKind) async throws -> any TestLedger {
        let store = try await makeStore(kind)
        let ada = try await store.player("Ada")
        let bob = try await store.player("Bob")
        let near = ClaimRecord(player: ada.id, hunt: testHunt.id, cache: "A1", time: t0,
                               location: Coordinate(latitude: 40.64003, longitude: -8.65004), method: .link,
                               verdict: .claimable)
        guard case .found = try await store.record(near, in: testHunt) else { throw TestFailure("the find was not recorded") }
        let far = ClaimRecord(player: bob.id, hunt: testHunt.id, cache: "A2", time: t0.addingTimeInterval(60),
                              location: Coordinate(latitude: 40.61234, longitude: -8.69876), method: .link,
                              verdict: .tooFar)
        _ = try await store.record(far, in: testHunt)
        for _ in 0..<2 {
            await #expect(throws: GameRuleViolation.self) {
                try await store.signIn(hunt: testHunt.id, name: "Bob", pin: "0000", at: t0.addingTimeInterval(120))
            }
        }
        _ = try await store.signIn(hunt: testHunt.id, name: "Bob", pin: "1234", at: t0.addingTimeInterval(130))
        _ = try await store.resetPIN(hunt: testHunt.id, player: bob.id, pin: "5678", by: "gm", at: t0.addingTimeInterval(140))
        let report = try await store.fileReport(cache: "A1", kind: .damaged, text: "Zebra lid smashed 7781", photoSHA256: nil,
                                                by: ada.id, in: testHunt, at: t0.addingTimeInterval(150))
        _ = try await store.resolveReport(hunt: testHunt.id, id: report.id, resolution: "Replaced lid 4417", by: "gm",
                                          at: t0.addingTimeInterval(160))
        try await store.found(ada, "B1", minutes: 2.5)
        let duck = try await store.seedTrackable(name: "Duck", into: "A1", in: testHunt, by: "gm", at: t0.addingTimeInterval(170))
        _ = try await store.pickUp(trackable: duck.id, from: "A1", by: ada.id, in: testHunt, at: t0.addingTimeInterval(180))
        _ = try await store.drop(trackable: duck.id, into: "B1", by: ada.id, in: testHunt, at: t0.addingTimeInterval(190))
        return store
    }

    static func allEvents(_ store: any GameStore) async throws -> [LedgerEvent] {
        try await store.events(after: 0, limit: 100_000)
    }

    /// The export as `geoqr ledger export` writes it: JSON lines.
    static func export(_ events: [LedgerEvent], _ form: LedgerExportForm) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for event in events {
            out.append(try encoder.encode(event.exported(form)))
            out.append(0x0A)
        }
        return out
    }

    /// What scripts/verify-ledger-export.py (Python's standard library only) says of an export:
    /// its exit status and its JSON report.
    static func outsiderVerdict(_ export: Data) throws -> (status: Int32, report: [String: Any]) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).jsonl")
        try export.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/verify-ledger-export.py").path, "--json", file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (process.terminationStatus, report)
    }

    @Test(arguments: StoreKind.tested)
    func publishedExportHoldsNoPrivateValueAndEveryHashRecomputes(_ kind: StoreKind) async throws {
        let store = try await playedLedger(kind)
        defer { store.removeFolder() }
        let events = try await Self.allEvents(store)
        let published = try Self.export(events, .published)
        let text = String(decoding: published, as: UTF8.self)
        for secret in Self.secrets { #expect(!text.contains(secret), "published export holds \(secret)") }
        for word in ["pin-checked", "pin-reset", "failures", "lockedUntil", "location", "\"text\""] {
            #expect(!text.contains(word), "published export holds \(word)")
        }
        let report = try LedgerExportVerifier.verify(file: published)
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.events == events.count)
        #expect(report.headHash == events.last?.hash)
        let pinEvents = events.filter { ["pin-checked", "pin-reset"].contains($0.kind) }.count
        #expect(pinEvents >= 1, "the sign-ins and the reset wrote no PIN event: nothing to withhold was tested")
        #expect(report.withheld == pinEvents)
        #expect(report.recomputed == events.count - pinEvents && report.linkedOnly == 0)
        // The trackable's distance is public, and the find's claim without its place.
        #expect(text.contains("distanceM"))
        #expect(text.contains(#"\"verdict\":\"too-far\""#))
        #expect(try await store.verify().isIntact)
        let outsider = try Self.outsiderVerdict(published)
        #expect(outsider.status == 0, "\(outsider.report)")
        #expect(outsider.report["headHash"] as? String == events.last?.hash)
        #expect(outsider.report["withheld"] as? Int == pinEvents && outsider.report["recomputed"] as? Int == report.recomputed)
    }

    @Test(arguments: StoreKind.tested)
    func completeExportHoldsEverythingAndVerifies(_ kind: StoreKind) async throws {
        let store = try await playedLedger(kind)
        defer { store.removeFolder() }
        let events = try await Self.allEvents(store)
        let complete = try Self.export(events, .complete)
        let text = String(decoding: complete, as: UTF8.self)
        for secret in Self.secrets { #expect(text.contains(secret), "complete export lacks \(secret)") }
        #expect(text.contains("pin-checked") && text.contains("pin-reset"))
        let report = try LedgerExportVerifier.verify(file: complete)
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.recomputed == events.count)
        let pinEvents = events.filter { ["pin-checked", "pin-reset"].contains($0.kind) }.count
        #expect(report.privateParts == 7 + pinEvents, "3 claims, 1 report, 1 resolution, 2 joins (the names), and the PIN events")
        let outsider = try Self.outsiderVerdict(complete)
        #expect(outsider.status == 0, "\(outsider.report)")
        #expect(outsider.report["privateParts"] as? Int == report.privateParts)
        // The projection still reads where the player stood, for the control room.
        #expect(try await store.scalar("SELECT lat FROM finds") == .real(40.64003))
        #expect(try await store.scalar("SELECT lon FROM attempts") == .real(-8.69876))
        #expect(try await store.scalar("SELECT text FROM reports") == .text("Zebra lid smashed 7781"))
    }

    @Test(arguments: StoreKind.tested)
    func anAlteredOrShortenedExportFails(_ kind: StoreKind) async throws {
        let store = try await playedLedger(kind)
        defer { store.removeFolder() }
        let events = try await Self.allEvents(store)
        var lines = String(decoding: try Self.export(events, .published), as: UTF8.self).split(separator: "\n").map(String.init)
        // One byte of the trackable's distance.
        let drop = try #require(lines.firstIndex { $0.contains("distanceM") })
        let digit = try #require(lines[drop].range(of: #"distanceM\":"#)).upperBound
        var altered = lines
        altered[drop].replaceSubrange(digit...digit, with: lines[drop][digit] == "1" ? "2" : "1")
        let alteredReport = LedgerExportVerifier.verify(try LedgerExportVerifier.events(in: Data(altered.joined(separator: "\n").utf8)))
        #expect(alteredReport.firstBadSeq == Int64(drop + 1))
        #expect(try Self.outsiderVerdict(Data(altered.joined(separator: "\n").utf8)).report["firstBadSeq"] as? Int == drop + 1)
        // One event dropped.
        lines.remove(at: 3)
        let short = LedgerExportVerifier.verify(try LedgerExportVerifier.events(in: Data(lines.joined(separator: "\n").utf8)))
        #expect(short.firstBadSeq == 4)
        #expect(try Self.outsiderVerdict(Data(lines.joined(separator: "\n").utf8)).report["firstBadSeq"] as? Int == 4)
        // A withheld event's content hash.
        var complete = String(decoding: try Self.export(events, .complete), as: UTF8.self)
        complete = complete.replacingOccurrences(of: "40.61234", with: "40.61235")
        let moved = try LedgerExportVerifier.verify(file: Data(complete.utf8))
        #expect(!moved.isIntact, "a private part changed must break its event's hash")
        #expect(try Self.outsiderVerdict(Data(complete.utf8)).status == 1)
    }

    @Test func sealedBodiesReadBackAsWritten() throws {
        let claim = ClaimRecord(player: "P1", hunt: "TEST", cache: "A1", time: t0,
                                location: Coordinate(latitude: 40.64003, longitude: -8.65004), method: .photo,
                                evidence: ClaimEvidence(photoSHA256: "ab", exifTime: t0), verdict: .tooFar, claimID: "c1")
        let values: [any Encodable & Sendable] = [
            ClaimAttempted(claim: claim, verdict: .tooFar),
            FindRecorded(find: "F2", claim: claim, firstToFind: true, awards: [PointsAward(reason: "find", amount: 5)], card: nil),
            ReportFiled(report: "R3", player: "P1", cache: "A1", kind: .damaged, text: "a \"quoted\" {brace}", photoSHA256: "cd"),
            ReportResolved(report: "R3", resolution: "fixed } {"),
            PINChecked(player: "P1", success: false, state: PINState(failures: 5, lockedUntil: t0)),
            PINReset(player: "P1"),
        ]
        for value in values {
            let (stored, hashed) = try EventSeal.seal(value)
            #expect(EventSeal.read(stored).hashedBody == hashed)
            #expect(EventSeal.read(stored).format == 2 && EventSeal.read(stored).holdsPrivatePart)
            #expect(EventSeal.read(hashed).hashedBody == hashed && !EventSeal.read(hashed).holdsPrivatePart)
            #expect(try JSONSerialization.jsonObject(with: Data(stored.utf8)) is [String: Any])
            func same<T: Decodable & Equatable>(_ type: T.Type) -> Bool {
                guard let mine = value as? T else { return false }
                return (try? BodyCoding.decode(T.self, from: stored)) == mine
            }
            let roundTrips = [same(ClaimAttempted.self), same(FindRecorded.self), same(ReportFiled.self),
                                  same(ReportResolved.self), same(PINChecked.self), same(PINReset.self)].contains(true)
            #expect(roundTrips, "\(stored)")
        }
        // Bodies with nothing private still say their format, through JSONEncoder.
        let (trade, tradeHashed) = try EventSeal.seal(TradeClosed(trade: "T1", state: .declined, reason: nil))
        #expect(trade == tradeHashed && trade.contains(#""v":2"#))
        #expect(try EventSeal.seal(HuntRunning()).stored == #"{"v":2}"#)
    }

    /// The previous release's ledger (LedgerMigrationTests' fixture): positions and PIN checks in
    /// hashed bodies of format 1. Its events keep verifying, new ones are written in format 2 on
    /// the same chain, and the published export withholds the old events that hold private
    /// fields, naming them, while every other hash still recomputes.
    @Test func aLedgerOfTheFormerFormatStillVerifiesAndWithholdsWhatItCannotHide() async throws {
        let store = try LedgerMigrationTests().migratedFixture()
        defer { store.removeFolder() }
        let old = try await Self.allEvents(store)
        #expect(old.count == 22)
        let ada = try #require(try await store.player(hunt: "DEMO", named: "Ada"))
        _ = try await store.join(hunt: "DEMO", name: "Eve", pin: "1357", team: nil, at: LedgerMigrationTests.later)
        _ = try? await store.signIn(hunt: "DEMO", name: "Eve", pin: "0000", at: LedgerMigrationTests.later)
        let demo = Hunt(id: "DEMO", name: "Demo", caches: [
            Cache(id: "B2", name: "Canteen", coordinate: Coordinate(latitude: 40.6311, longitude: -8.6590), message: "Lunch"),
        ])
        _ = try await store.record(ClaimRecord(player: ada.id, hunt: "DEMO", cache: "B2", time: LedgerMigrationTests.later,
                                               location: Coordinate(latitude: 40.61234, longitude: -8.69876),
                                               method: .link, verdict: .tooFar), in: demo)
        #expect(try await store.verify().isIntact)
        let events = try await Self.allEvents(store)

        // The private export of the old events is what it was: the events as stored.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for event in old { #expect(try encoder.encode(event.exported(.complete)) == encoder.encode(event)) }
        let complete = try LedgerExportVerifier.verify(file: try Self.export(events, .complete))
        #expect(complete.isIntact, "\(complete.problem ?? "")")
        #expect(complete.linkedOnly == 3, "the three joins hashed with a PIN hash the ledger keeps apart")

        let published = try Self.export(events, .published)
        let text = String(decoding: published, as: UTF8.self)
        for secret in ["40.6303", "-8.6575", "40.64", "40.61234", "pin-checked", "failures"] {
            #expect(!text.contains(secret), "published export holds \(secret)")
        }
        let report = try LedgerExportVerifier.verify(file: published)
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.headHash == events.last?.hash)
        let oldPrivate = old.filter { ["claim-attempted", "find-recorded", "pin-checked"].contains($0.kind) }.count
        #expect(report.linkedOnly == oldPrivate + 3, "old claims, finds, PIN checks and joins are withheld")
        #expect(text.contains(#""withheld":"format-1""#))
        let outsider = try Self.outsiderVerdict(published)
        #expect(outsider.status == 0 && outsider.report["linkedOnly"] as? Int == report.linkedOnly, "\(outsider.report)")
        let outsiderComplete = try Self.outsiderVerdict(try Self.export(events, .complete))
        #expect(outsiderComplete.status == 0 && outsiderComplete.report["linkedOnly"] as? Int == 3, "\(outsiderComplete.report)")
    }
}
