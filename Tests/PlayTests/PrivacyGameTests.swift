import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// The game's privacy acts with the clock moved as a hunt goes by: positions are dropped only
/// once the hunt has ended and its retention passed; a forgotten player's report photos go.
@Suite struct PrivacyGameTests {
    static let hunt: Hunt = {
        var hunt = GameTests.hunt
        hunt.positionRetentionHours = 2
        hunt.caches[1].challenge = Challenge(kind: .photo(task: "Your team at the mill wheel"), points: 12)
        return hunt
    }()
    let played: LedgerGame

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "privacy-tests")
    }

    @Test func positionsGoTwoHoursAfterTheStopAndOnlyThen() async throws {
        defer { played.remove() }
        let game = played.game, clock = played.clock
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let found = try await game.claimCode(played.code("A1"), at: played.near("A1"), method: .link, by: ada.id).value.best
        #expect(found.outcome == .found)
        await #expect(throws: GameRuleViolation.huntNotEnded("PLAY")) { try await game.dropPositions() }
        clock.advance(600)
        let stopped = clock.read()
        _ = try await game.setRunning(false)
        clock.advance(2 * 3600 - 1)
        await #expect(throws: GameRuleViolation.positionsKept(until: stopped.addingTimeInterval(2 * 3600))) {
            try await game.dropPositions()
        }
        #expect(try await game.store.finds(hunt: "PLAY", player: nil).first?.location != nil)
        clock.advance(1)
        let dropped = try await game.dropPositions()
        #expect(dropped.value?.claims == 1 && dropped.effects == [.positionsDropped])
        #expect(try await game.store.finds(hunt: "PLAY", player: nil).first?.location == nil)
        #expect(try await game.dropPositions().value == nil, "nothing left: nothing recorded")
        #expect(try await game.store.verify().isIntact)
    }

    @Test func aForgottenPlayersReportPhotosGoFromTheFolder() async throws {
        defer { played.remove() }
        let game = played.game
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let photo = Data("a photo of a soaked card".utf8)
        let report = try await game.fileReport(on: "A1", kind: .damaged, text: "Soaked", photo: photo, by: ada.id).value
        let folder = played.folder.appendingPathComponent("report-photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let kept = folder.appendingPathComponent(try #require(report.photoSHA256))
        try photo.write(to: kept)
        let forgotten = try await game.forgetPlayer("Ada", photoFolders: [folder.path])
        #expect(forgotten.value.pseudonym == "Forgotten player 1" && forgotten.effects.contains(.playerForgotten(player: ada.id)))
        #expect(!FileManager.default.fileExists(atPath: kept.path))
        await #expect(throws: GameRuleViolation.self) { try await game.signIn(name: "Ada", pin: "4321") }
        #expect(try await game.forgetPlayer(ada.id, photoFolders: [folder.path]).value.alreadyForgotten)
    }

    @Test func aForgottenPlayersTaskPhotosAndTheReasonsGivenThemGo() async throws {
        defer { played.remove() }
        let game = played.game
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        #expect(try await game.claimCode(played.code("A2"), at: played.near("A2"), method: .link, by: ada.id).value.best.outcome == .found)
        let photo = Data("Ada and her brother at the wheel".utf8)
        let sent = try await game.submitPhoto(cache: "A2", photo: photo, by: ada.id).value
        let folder = played.folder.appendingPathComponent("task-photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let kept = folder.appendingPathComponent(sent.photoSHA256)
        try photo.write(to: kept)
        _ = try await game.judgePhoto(sent.id, approve: false, reason: "Ada's brother is not on her team")
        #expect(try await game.photoTasks().first?.reason == "Ada's brother is not on her team")

        _ = try await game.forgetPlayer("Ada", photoFolders: [played.folder.appendingPathComponent("report-photos").path, folder.path])
        #expect(!FileManager.default.fileExists(atPath: kept.path))
        let after = try #require(try await game.photoTasks().first)
        #expect(after.reason == "" && after.state == .rejected, "\(after)")
        #expect(try await game.store.verify().isIntact)
    }
}
