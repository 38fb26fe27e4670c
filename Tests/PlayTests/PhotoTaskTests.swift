import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Photo tasks on a real SQLite ledger: a finder sends a photo, the game master rejects it with
/// a reason (no points, the reason kept for the phone and out of the published ledger), the
/// finder sends another, it is approved (points once); bounds and the ledger's verification.
@Suite("Photo tasks")
struct PhotoTaskTests {
    static let hunt = Hunt(id: "SNAP", name: "Snap", caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.64, longitude: -8.65), points: 10,
              challenge: Challenge(kind: .photo(task: "Your team on the bridge"), points: 12)),
        Cache(id: "A2", name: "Quiz", coordinate: Coordinate(latitude: 40.65, longitude: -8.65), points: 10,
              challenge: Challenge(kind: .question(prompt: "Colour?", answers: ["red"], choices: []), points: 5)),
    ])

    let played: LedgerGame
    var game: Game { played.game }

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "photo-tasks")
    }

    func find(_ cache: String, by player: Player) async throws {
        _ = try await game.claimCode(played.code(cache), at: played.near(cache), method: .link, by: player.id)
    }

    /// Bytes standing in for a re-encoded JPEG: only their hash reaches the ledger.
    func photo(_ n: Int) -> Data { Data([0xFF, 0xD8, 0xFF, UInt8(n)] + Array(repeating: UInt8(n), count: 64)) }

    @Test func rejectedThenApprovedWinsThePointsOnce() async throws {
        defer { played.remove() }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        await #expect(throws: GameRuleViolation.cacheNotFoundByPlayer(cache: "A1", player: ada.id)) {
            try await game.submitPhoto(cache: "A1", photo: photo(1), by: ada.id)
        }
        try await find("A1", by: ada)
        let before = try await game.standing(of: ada).points
        await #expect(throws: GameRuleViolation.noPhotoTask("A2")) {
            try await game.submitPhoto(cache: "A2", photo: photo(1), by: ada.id)
        }

        let first = try await game.submitPhoto(cache: "bridge", photo: photo(1), by: ada.id).value
        #expect(first.state == .pending && first.cache == "A1" && first.photoSHA256.count == 64)
        #expect(try await game.photoTaskStanding(cache: "A1", of: ada.id).state == .pending)
        await #expect(throws: GameRuleViolation.reasonMissing) { try await game.judgePhoto(first.id, approve: false, reason: "  ") }

        let rejected = try await game.judgePhoto(first.id, approve: false, reason: "Nobody is on the bridge")
        #expect(rejected.value.state == .rejected && rejected.value.points == 0 && rejected.effects.isEmpty)
        await #expect(throws: GameRuleViolation.submissionAlreadyJudged(first.id)) {
            try await game.judgePhoto(first.id, approve: true, reason: "")
        }
        var standing = try await game.photoTaskStanding(cache: "A1", of: ada.id)
        #expect(standing.state == .rejected && standing.reason == "Nobody is on the bridge" && standing.photosLeft == 2)
        #expect(try await game.standing(of: ada).points == before, "a rejected photo wins nothing")

        let second = try await game.submitPhoto(cache: "A1", photo: photo(2), by: ada.id).value
        let approved = try await game.judgePhoto(second.id.lowercased(), approve: true, reason: "").value
        #expect(approved.state == .approved && approved.points == 12)
        #expect(try await game.standing(of: ada).points == before + 12)
        standing = try await game.photoTaskStanding(cache: "A1", of: ada.id)
        #expect(standing.state == .approved && standing.pointsWon == 12 && standing.photosLeft == 0 && standing.reason == nil)
        await #expect(throws: GameRuleViolation.photoTaskDone("A1")) {
            try await game.submitPhoto(cache: "A1", photo: photo(3), by: ada.id)
        }

        // The control room's list: waiting first, then the latest judged.
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        try await find("A1", by: bob)
        let bobs = try await game.submitPhoto(cache: "A1", photo: photo(4), by: bob.id).value
        #expect(try await game.photoTasks().map(\.id) == [bobs.id, second.id, first.id])

        // The reason is in the event's private part: the published ledger does not show it.
        let judged = try await game.store.events(after: 0, limit: 100).filter { $0.kind == "photo-judged" }
        #expect(judged.count == 2)
        #expect(judged.allSatisfy { !$0.exported(.published).body!.contains("bridge") })
        #expect(judged[0].body.contains("Nobody is on the bridge"))
        #expect(try await game.store.verify().isIntact, "photo_submissions rebuilds from the events")
    }

    @Test func aPlayerSendsAtMostThreePhotosForATask() async throws {
        defer { played.remove() }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        try await find("A1", by: ada)
        let first = try await game.submitPhoto(cache: "A1", photo: photo(1), by: ada.id).value
        _ = try await game.judgePhoto(first.id, approve: false, reason: "Blurred")
        _ = try await game.submitPhoto(cache: "A1", photo: photo(2), by: ada.id)
        _ = try await game.submitPhoto(cache: "A1", photo: photo(3), by: ada.id)
        await #expect(throws: GameRuleViolation.tooManyPhotos(cache: "A1", limit: PlayerQuotas.photoSubmissions)) {
            try await game.submitPhoto(cache: "A1", photo: photo(4), by: ada.id)
        }
        // Two waiting photos both approved: the points still come once.
        let waiting = try await game.photoTasks().filter { $0.state == .pending }
        #expect(waiting.count == 2)
        let won = try await [game.judgePhoto(waiting[0].id, approve: true, reason: ""),
                             game.judgePhoto(waiting[1].id, approve: true, reason: "")].map(\.value.points)
        #expect(won == [12, 0])
        #expect(try await game.photoTaskStanding(cache: "A1", of: ada.id).pointsWon == 12)
        #expect(try await game.store.verify().isIntact)
    }
}
