import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Play beyond the Wi-Fi: claims a phone kept with no network and sent later, codes typed by
/// hand, and PIN guesses counted by the address that makes them. A real SQLite ledger in a
/// temporary folder, with a clock the test moves.
@Suite("Offline play, typed codes and guessing")
struct OfflinePlayTests {
    static let hunt = Hunt(id: "TOWN", name: "Town", start: GameTests.t0, end: GameTests.t0.addingTimeInterval(4 * 3600),
                           caches: GameTests.hunt.caches, offlineGraceMinutes: 120)

    let played: LedgerGame
    var game: Game { played.game }
    var clock: GameTests.Clock { played.clock }
    var secret: HuntSecret { played.secret }
    var folder: URL { played.folder }

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "offline-tests")
    }

    func code(_ cache: String) -> String { CacheCode.payload(hunt: "TOWN", cache: cache, secret: secret) }
    func typed(_ cache: String) -> String { TypedCode.text(hunt: "TOWN", cache: cache, secret: secret) }
    func near(_ cache: String) -> ClaimLocation {
        ClaimLocation(coordinate: Self.hunt.cache(id: cache)!.coordinate, accuracy: 8, source: .browser)
    }

    @Test func aLateClaimIsJudgedWhenAndWhereItWasScannedAndRecordedOnce() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let scanned = GameTests.t0.addingTimeInterval(3 * 3600 + 50 * 60)   // 10 minutes before the end
        clock.advance(4 * 3600 + 30 * 60)                                    // sent 40 minutes later, after the end
        let sending = Sending(claimID: "c-7f3a", scannedAt: scanned)
        let first = try await game.claimCode(code("A1"), at: near("A1"), method: .link, by: ada.id, sending: sending)
        let answer = first.value.best
        #expect(answer.outcome == .found && answer.scanTime == scanned && answer.lateSeconds == 40 * 60,
                "judged inside the window, at the scan's time, and marked late: \(answer)")
        #expect(first.effects.contains(.standingsChanged))
        let again = try await game.claimCode(code("A1"), at: near("A1"), method: .link, by: ada.id, sending: sending)
        #expect(again.value.best.outcome == .found && again.value.best.find == answer.find && again.value.best.points == answer.points,
                "a second sending answers as the first did")
        #expect(again.effects.isEmpty, "and changes nothing")
        let events = try await game.store.events(after: 0, limit: 100).filter { $0.kind.hasPrefix("find") || $0.kind.hasPrefix("claim") }
        #expect(events.count == 1, "recorded once: \(events.map(\.kind))")
        #expect(events.first?.body.contains(#""claimId":"c-7f3a""#) == true && events.first?.body.contains(#""lateSeconds":2400"#) == true)
        let finds = try await game.store.finds(hunt: "TOWN", player: ada.id)
        #expect(finds.map(\.time) == [scanned])
        #expect(try await game.store.verify().isIntact, "the claim ids rebuild from the events")

        // The same claim id for a refused scan is also answered from the ledger.
        let far = ClaimLocation(coordinate: Coordinate(latitude: 40.70, longitude: -8.65), accuracy: 8, source: .browser)
        let refused = Sending(claimID: "c-far", scannedAt: scanned)
        #expect(try await game.claimCode(code("A2"), at: far, method: .link, by: ada.id, sending: refused).value.best.verdict == .tooFar)
        let twice = try await game.claimCode(code("A2"), at: far, method: .link, by: ada.id, sending: refused)
        #expect(twice.value.best.verdict == .tooFar && twice.effects.isEmpty)
    }

    @Test func aClaimOlderThanTheGraceIsRefusedAndOneScannedAfterTheEndIsOutsideTheWindow() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        clock.advance(3 * 3600)
        let stale = Sending(claimID: "old", scannedAt: clock.read().addingTimeInterval(-121 * 60))
        await #expect(throws: PlayError.tooLate(minutes: 121, grace: 120)) {
            try await game.claimCode(code("A1"), at: near("A1"), method: .link, by: ada.id, sending: stale)
        }
        #expect(PlayError.tooLate(minutes: 121, grace: 120).description
                == "this scan is 121 minutes old: a scan kept without network counts only within 120 minutes")
        clock.advance(3600 + 60)   // 1 minute after the end
        let afterEnd = Sending(claimID: "late", scannedAt: clock.read().addingTimeInterval(-30))
        #expect(try await game.claimCode(code("A1"), at: near("A1"), method: .link, by: ada.id, sending: afterEnd).value.best.verdict
                == .outsideTimeWindow)
        await #expect(throws: PlayError.badClaimID) {
            try await game.claimCode(code("A1"), at: near("A1"), method: .link, by: ada.id, sending: Sending(claimID: "a b"))
        }
    }

    @Test func aTypedCodeFindsItsCacheAndWrongOnesLockTheTyperOut() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        clock.advance(60)
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let lower = typed("A1").lowercased().replacingOccurrences(of: "-", with: " ")
        let found = try await game.claimCode(lower, at: near("A1"), method: .typed, by: ada.id).value.best
        #expect(found.outcome == .found && found.cache == "A1")
        #expect(try await game.store.finds(hunt: "TOWN", player: ada.id).first?.method == .typed)
        await #expect(throws: PlayError.notATypedCode) {
            try await game.claimCode("hello", at: near("A2"), method: .typed, by: ada.id)
        }
        for _ in 0..<5 {
            let wrong = try await game.claimCode("A2-0000-0000", at: near("A2"), method: .typed, by: ada.id).value.best
            #expect(wrong.verdict == .forged)
        }
        await #expect(throws: PlayError.typingLockedOut(until: clock.read().addingTimeInterval(15 * 60))) {
            try await game.claimCode(typed("A2"), at: near("A2"), method: .typed, by: ada.id)
        }
        #expect(try await game.claimCode(code("A2"), at: near("A2"), method: .link, by: ada.id).value.best.outcome == .found,
                "scanning still works while typing is locked")
    }

    @Test func wrongPINsLockTheGuessingAddressNotThePlayer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await game.join(name: "Ada", pin: "4321", team: nil)
        for tries in (0..<4).reversed() {
            await #expect(throws: GameRuleViolation.wrongPIN(remainingTries: tries + 1)) {
                try await game.signIn(name: "ada", pin: "0000", from: "198.51.100.7")
            }
        }
        await #expect(throws: GameRuleViolation.lockedOut(until: clock.read().addingTimeInterval(15 * 60))) {
            try await game.signIn(name: "ada", pin: "0000", from: "198.51.100.7")
        }
        await #expect(throws: GameRuleViolation.lockedOut(until: clock.read().addingTimeInterval(15 * 60))) {
            try await game.signIn(name: "Ada", pin: "4321", from: "198.51.100.7")
        }
        #expect(try await game.signIn(name: "Ada", pin: "4321", from: "203.0.113.20").value.name == "Ada",
                "the rival's lockout is the rival's own")
        // Guessing from many addresses still stops (10 for Ada from every network she never
        // used, then 30 minutes), and never locks Ada out of the network she signed in from.
        for address in 0..<4 {
            for _ in 0..<5 { _ = try? await game.signIn(name: "ada", pin: "0000", from: "192.0.2.\(address)") }
        }
        await #expect(throws: GameRuleViolation.lockedOut(until: clock.read().addingTimeInterval(30 * 60))) {
            try await game.signIn(name: "Ada", pin: "4321", from: "198.18.0.1")
        }
        #expect(try await game.signIn(name: "Ada", pin: "4321", from: "203.0.113.20").value.name == "Ada",
                "four addresses' guesses do not lock Ada out where she signed in before")
    }
}
