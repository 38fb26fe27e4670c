import Foundation
import GeoQR
@testable import Ledger
import Testing

/// Photo tasks in the ledger, on each store: `photo-submitted` and `photo-judged` events, the
/// `photo_submissions` rows and an approval's points, rebuilt by verification.
@Suite("Photo tasks in the ledger")
struct PhotoTaskStoreTests {
    static let hunt: Hunt = {
        var hunt = testHunt
        hunt.caches[0].challenge = Challenge(kind: .photo(task: "The bridge's lamp"), points: 7)
        return hunt
    }()
    static let sha = String(repeating: "ab", count: 32)

    @Test(arguments: StoreKind.tested) func aRejectionThenAnApprovalSurviveVerification(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        try await store.found(ada, "A1")
        let before = try #require(try await store.leaderboard(hunt: "TEST").first).points

        let first = try await store.submitPhoto(cache: "A1", photoSHA256: Self.sha, by: ada.id, in: Self.hunt, at: t0.addingTimeInterval(60))
        #expect(first.state == .pending && first.id == "S3")
        let rejected = try await store.judgePhoto("s3", approve: false, reason: "No lamp", in: Self.hunt, by: "GM",
                                                  at: t0.addingTimeInterval(90))
        #expect(rejected.state == .rejected && rejected.reason == "No lamp" && rejected.points == 0)
        let second = try await store.submitPhoto(cache: "A1", photoSHA256: Self.sha, by: "Ada", in: Self.hunt, at: t0.addingTimeInterval(120))
        let approved = try await store.judgePhoto(second.id, approve: true, reason: "", in: Self.hunt, by: "GM", at: t0.addingTimeInterval(150))
        #expect(approved.state == .approved && approved.points == 7 && approved.judged == t0.addingTimeInterval(150))
        #expect(try await store.leaderboard(hunt: "TEST").first?.points == before + 7)
        #expect(try await store.photoSubmissions(hunt: "TEST", player: ada.id).map(\.id) == [second.id, first.id])

        let report = try await store.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        try await store.tamper("UPDATE photo_submissions SET state = 'approved' WHERE id = 'S3'")
        let tampered = try await store.verify()
        #expect(tampered.problem?.contains("photo_submissions") == true, "\(tampered.problem ?? "")")
    }
}
