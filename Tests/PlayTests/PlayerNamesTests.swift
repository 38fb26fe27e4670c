import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Names and what a player can make the ledger keep, through the application layer on a real
/// SQLite ledger, with ICU's real spoof checker (issue 24 §2, §5).
@Suite("Player names and quotas")
struct PlayerNamesTests {
    static let hunt = Hunt(id: "NAMES", name: "Names", trails: [], caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.6400, longitude: -8.6500), message: "Under the bridge"),
    ])
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("player-names-tests-\(UUID().uuidString)")
    let store: SQLiteGameStore
    let game: Game

    init() throws {
        store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4))
        game = Game(hunt: Self.hunt, secret: nil, store: store)
    }

    @Test func icuIsThereAndItsSkeletonsAreUnicodes() {
        #expect(NameSkeletons.unavailable == nil)
        #expect(NameSkeletons.skeleton("\u{410}da") == NameSkeletons.skeleton("Ada"))
        #expect(NameSkeletons.skeleton("rn") == NameSkeletons.skeleton("m"))
        #expect(NameSkeletons.skeleton("Ada") != NameSkeletons.skeleton("Bob"))
        #expect(NameSkeletons.skeleton("") == "")
        let long = String(repeating: "ﷺ", count: 40)   // one character whose skeleton is long
        #expect(NameSkeletons.skeleton(long).utf8.count > long.utf8.count)
    }

    /// Each attack name of the issue refused with its reason, once Ada plays.
    @Test func theIssuesNamesAreRefusedAtJoin() async throws {
        _ = try await game.join(name: "Ada", pin: "4321", team: nil)
        await #expect(throws: GameRuleViolation.nameConfusable("\u{410}da", with: "Ada")) {
            try await game.join(name: "\u{410}da", pin: "4321", team: nil)
        }
        await #expect(throws: GameRuleViolation.nameConfusable("\u{430}da", with: "Ada"), "lower-case Cyrillic а too") {
            try await game.join(name: "\u{430}da", pin: "4321", team: nil)
        }
        await #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try await game.join(name: "A\u{200B}da", pin: "4321", team: nil) }
        await #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try await game.join(name: "\u{202E}adA", pin: "4321", team: nil) }
        await #expect(throws: GameRuleViolation.nameLooksLikeID("P160")) { try await game.join(name: "P160", pin: "4321", team: nil) }
        // Р160 with a Cyrillic Р passes NFKC but not its skeleton.
        await #expect(throws: GameRuleViolation.nameLooksLikeID("\u{420}160")) { try await game.join(name: "\u{420}160", pin: "4321", team: nil) }
        #expect(try await store.players(hunt: "NAMES").map(\.name) == ["Ada"])
    }

    /// The names a join is checked against are kept between joins and brought up to date from
    /// the ledger: a player who joined through another server on the same store (here the store
    /// itself, as `geoqr gm` or a second server writes), after this game last looked, counts too;
    /// so does another hunt's player not.
    @Test func joinsMadeElsewhereAreSeenByTheNextJoin() async throws {
        _ = try await game.join(name: "Ada", pin: "4321", team: nil)
        _ = try await store.join(hunt: "NAMES", name: "Bob", pin: "1111", team: nil, at: Date())
        _ = try await store.join(hunt: "OTHER", name: "Cy", pin: "1111", team: nil, at: Date())
        await #expect(throws: GameRuleViolation.nameConfusable("B\u{43E}b", with: "Bob")) {
            try await game.join(name: "B\u{43E}b", pin: "4321", team: nil)   // a Cyrillic о
        }
        await #expect(throws: GameRuleViolation.nameTaken("bob")) { try await game.join(name: "bob", pin: "4321", team: nil) }
        #expect(try await game.join(name: "Cy", pin: "4321", team: nil).value.name == "Cy")
        // A second game on the same store (another server) starts from the ledger's players.
        let other = Game(hunt: Self.hunt, secret: nil, store: store)
        await #expect(throws: GameRuleViolation.nameConfusable("\u{410}da", with: "Ada")) {
            try await other.join(name: "\u{410}da", pin: "4321", team: nil)
        }
    }

    @Test func ordinaryNamesInManyScriptsJoin() async throws {
        let names = ["João", "Ελένη", "さくら", "山田太郎", "Владимир", "प्रियंका", "Nguyễn Thị Minh Khai",
                     "👨‍👩‍👧‍👦", "🏳️‍🌈 Sam", "Ana-Sofia d'Ávila"]
        for name in names { _ = try await game.join(name: name, pin: "4321", team: nil) }
        #expect(try await store.players(hunt: "NAMES").map(\.name) == names)
    }

    /// A name and an id are looked up apart: a player who joined as `P2` before such names were
    /// refused (written to the store directly, as an old ledger holds it) is not found by `P2`,
    /// which is the id of whoever has it; they sign in by their own id.
    @Test func signInLooksUpIdsAndNamesApart() async throws {
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let old = try await store.join(hunt: "NAMES", name: "Bob", pin: "1111", team: nil, at: Date())
        #expect(try await game.signIn(name: ada.id, pin: "4321").value.id == ada.id)
        #expect(try await game.signIn(name: "ada", pin: "4321").value.id == ada.id)
        #expect(try await game.signIn(name: old.id.lowercased(), pin: "1111").value.id == old.id)
        await #expect(throws: GameRuleViolation.unknownPlayer("P999")) { try await game.signIn(name: "P999", pin: "4321") }
        #expect(try await store.player(hunt: "NAMES", named: "P999") == nil)
    }

    /// A player has at most 20 reports open; the game master resolving one frees a place.
    @Test func openReportsPerPlayerAreCapped() async throws {
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let bo = try await game.join(name: "Bo", pin: "4321", team: nil).value
        var first: Report?
        for i in 0..<PlayerQuotas.openReports {
            let r = try await game.fileReport(on: "A1", kind: .damaged, text: "report \(i)", photo: nil, by: ada.id).value
            first = first ?? r
        }
        await #expect(throws: GameRuleViolation.tooManyOpenReports(limit: 20)) {
            try await game.fileReport(on: "A1", kind: .damaged, text: "one more", photo: nil, by: ada.id)
        }
        _ = try await game.fileReport(on: "A1", kind: .missing, text: "mine", photo: nil, by: bo.id)
        _ = try await store.resolveReport(hunt: "NAMES", id: first!.id, resolution: "fixed", by: "gm", at: Date())
        _ = try await game.fileReport(on: "A1", kind: .damaged, text: "again", photo: nil, by: ada.id)
    }

    /// A player has at most 200 trade offers open; an expired or cancelled one frees a place.
    @Test func openTradeOffersPerPlayerAreCapped() async throws {
        let secret = HuntSecret.random()
        let now = Date()
        let game = Game(hunt: Self.hunt, secret: secret, store: store, clock: { now })
        _ = try await game.setRunning(true)
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        _ = try await game.join(name: "Bo", pin: "4321", team: nil)
        let site = ClaimLocation(coordinate: Self.hunt.cache(id: "A1")!.coordinate, accuracy: 5, source: .browser, time: nil)
        _ = try await game.claimCode(CacheCode.payload(hunt: "NAMES", cache: "A1", secret: secret), at: site, method: .link, by: ada.id)
        let card = try await store.collection(hunt: "NAMES", player: ada.id)[0].id
        var offers: [TradeOffer] = []
        for _ in 0..<PlayerQuotas.openTradeOffers {
            offers.append(try await game.offerTrade(from: ada.id, to: "Bo", give: [card], receive: []).value)
        }
        await #expect(throws: GameRuleViolation.tooManyOpenTrades(limit: PlayerQuotas.openTradeOffers)) {
            try await game.offerTrade(from: ada.id, to: "Bo", give: [card], receive: [])
        }
        _ = try await game.answerTrade(offers[0].id, .cancel, by: ada.id)
        _ = try await game.offerTrade(from: ada.id, to: "Bo", give: [card], receive: [])
    }

    /// The 18 MB report never reaches the ledger.
    @Test func aHugeReportLeavesNoTrace() async throws {
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let before = try await store.headSeq()
        let zalgo = String(repeating: "x" + String(repeating: "\u{301}", count: 9_000), count: 1_000)
        await #expect(throws: GameRuleViolation.textTooLarge(field: "a report", maxBytes: 4096)) {
            try await game.fileReport(on: "A1", kind: .unreadable, text: zalgo, photo: nil, by: ada.id)
        }
        #expect(try await store.headSeq() == before)
    }
}
