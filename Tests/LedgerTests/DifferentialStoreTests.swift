import ForgeryCorpus
import Foundation
import GeoQR
@testable import Ledger
import Testing

/// The two stores are one ledger in two databases: a seeded random sequence of acts (joins,
/// sign-ins, claims in and out of radius, typed, late and resent claims, hints, trackables,
/// trades offered, accepted, declined and cancelled, reports, every game-master act, refused ones
/// included, and reads between them) run on SQLite and on PostgreSQL must give the same answer
/// act by act, the same events (so the same head hash) and the same projected tables.
///
/// Salts come from one key for both (``EventSeal/replaySalts(key:)``), so an event's bytes and
/// hash depend on the acts alone.
@Suite("SQLite and PostgreSQL, act by act")
struct DifferentialStoreTests {
    /// Acts in each seed's run; the seeds run side by side. Each seed's acts take every kind of
    /// act, and each that can be refused both ways (checked below; a third seed tried,
    /// `…3523`, had every trade accept refused in 1,500). One run of 5,000 acts ended 100–250 s
    /// after every other suite under AddressSanitizer, the test command's longest wait.
    static let acts = 1_500
    static let seeds: [UInt64] = [0x6765_6f71_7232_3522, 0x6765_6f71_7232_3524]

    @Test(.enabled(if: StoreKind.tested.contains(.postgres), "needs GEOQR_TEST_POSTGRES (scripts/test sets it)"),
          arguments: seeds)
    func theSameActsGiveTheSameLedger(seed: UInt64) async throws {
        EventSeal.replaySalts(key: Array("differential store test".utf8))
        // What is compared is what each store answers and keeps, not what survives a power cut:
        // neither waits for the disk at each commit.
        let sqlite = try await makeStore(.sqlite, .init(pinCost: 4, synchronousFull: false))
        let made = try await makeStore(.postgres)
        _ = try await made.rows("""
            DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = off', current_database()); END $$
            """)
        let postgres = try await made.reopened()
        defer { sqlite.removeFolder() }
        var script = ActScript(seed: seed)
        var tally: [String: (acts: Int, refused: Int)] = [:]
        for index in 0..<Self.acts {
            let act = try await script.next(reading: sqlite)
            // The two stores share nothing: each act runs on both at once.
            async let leftAnswer = act.run(on: sqlite)
            async let rightAnswer = act.run(on: postgres)
            let (left, right) = await (leftAnswer, rightAnswer)
            guard left.text == right.text else {
                Issue.record("""
                    act \(index + 1) of seed \(seed): \(act)
                      SQLite:     \(left.text)
                      PostgreSQL: \(right.text)
                    """)
                return
            }
            script.learn(from: left, of: act)
            tally[act.name, default: (0, 0)].acts += 1
            if left.refused { tally[act.name, default: (0, 0)].refused += 1 }
        }
        // Every kind of act ran, and each that can be refused both succeeded and was refused.
        for name in ReplayAct.names {
            let (acts, refused) = tally[name] ?? (0, 0)
            #expect(acts > 0, "no \(name) in \(Self.acts) acts of seed \(seed)")
            if ReplayAct.canSucceedAndFail.contains(name) {
                #expect(refused > 0 && refused < acts, "\(name): \(refused) of \(acts) refused (seed \(seed))")
            }
        }

        let eventsLeft = try await sqlite.events(after: 0, limit: 1_000_000)
        let eventsRight = try await postgres.events(after: 0, limit: 1_000_000)
        #expect(eventsLeft.count > Self.acts / 2)
        #expect(eventsLeft.count == eventsRight.count)
        if let seq = zip(eventsLeft, eventsRight).first(where: { $0 != $1 })?.0.seq {
            Issue.record("event \(seq) differs:\n  SQLite:     \(eventsLeft[Int(seq) - 1])\n  PostgreSQL: \(eventsRight[Int(seq) - 1])")
        }
        let verifiedLeft = try await sqlite.verify(), verifiedRight = try await postgres.verify()
        #expect(verifiedLeft.isIntact && verifiedRight.isIntact)
        #expect(verifiedLeft.headHash == verifiedRight.headHash)

        for (table, order) in LedgerSchema.derivedTables {
            let query = "SELECT * FROM \(table) ORDER BY \(order)"
            let rowsLeft = try await sqlite.rows(query), rowsRight = try await postgres.rows(query)
            #expect(rowsLeft.count == rowsRight.count, "\(table): \(rowsLeft.count) rows in SQLite, \(rowsRight.count) in PostgreSQL")
            if let (a, b) = zip(rowsLeft, rowsRight).first(where: { $0 != $1 }) {
                Issue.record("\(table) differs:\n  SQLite:     \(a)\n  PostgreSQL: \(b)")
            }
        }
    }
}

/// One act of the replay, with what it is given; run the same on any store.
enum ReplayAct: Sendable {
    case join(name: String, pin: String, team: String?, at: Date)
    case signIn(name: String, pin: String, at: Date)
    case resetPIN(player: String, pin: String, at: Date)
    case claim(ClaimRecord, at: Date)
    case revealHint(cache: String, cost: Int, player: String, at: Date)
    case seedTrackable(name: String, cache: String, at: Date)
    case pickUp(trackable: String, cache: String, player: String, at: Date)
    case drop(trackable: String, cache: String, player: String, at: Date)
    case offerTrade(from: String, to: String, give: [String], receive: [String], at: Date)
    case acceptTrade(id: String, player: String, at: Date)
    case declineTrade(id: String, player: String, at: Date)
    case cancelTrade(id: String, player: String, at: Date)
    case fileReport(cache: String, kind: ReportKind, text: String, photo: String?, player: String, at: Date)
    case resolveReport(id: String, resolution: String, at: Date)
    case voidFind(id: String, reason: String, at: Date)
    case adjustPoints(player: String, amount: Int, reason: String, at: Date)
    case setCacheDisabled(Bool, cache: String, at: Date)
    case rotateSecret(fingerprint: String, at: Date)
    case setHuntRunning(Bool, at: Date)
    case read(Int)

    static let names = ["join", "signIn", "resetPIN", "claim", "revealHint", "seedTrackable", "pickUp", "drop",
                        "offerTrade", "acceptTrade", "declineTrade", "cancelTrade", "fileReport", "resolveReport",
                        "voidFind", "adjustPoints", "setCacheDisabled", "rotateSecret", "setHuntRunning", "read"]
    /// Acts the script gives both what the rules accept and what they refuse.
    static let canSucceedAndFail: Set = ["join", "signIn", "resetPIN", "revealHint", "pickUp", "drop", "offerTrade",
                                         "acceptTrade", "declineTrade", "cancelTrade", "fileReport", "resolveReport",
                                         "voidFind"]
    static let gm = "gm"

    /// The case's name (every case has values, so the mirror's one child is labelled with it).
    var name: String { Mirror(reflecting: self).children.first?.label ?? "?" }

    /// What the store answered, as text to compare, and what the script learns from it.
    struct Answer: Sendable {
        var text: String
        var refused = false
        var player: Player?
        var find: Find?
        var card: String?
        var trackable: Trackable?
        var trade: TradeOffer?
        var report: Report?
    }

    func run(on store: any GameStore) async -> Answer {
        let hunt = testHunt
        do {
            switch self {
            case .join(let name, let pin, let team, let time):
                let player = try await store.join(hunt: hunt.id, name: name, pin: pin, team: team, at: time)
                return Answer(text: "\(player)", player: player)
            case .signIn(let name, let pin, let time):
                return Answer(text: "\(try await store.signIn(hunt: hunt.id, name: name, pin: pin, at: time))")
            case .resetPIN(let player, let pin, let time):
                return Answer(text: "\(try await store.resetPIN(hunt: hunt.id, player: player, pin: pin, by: Self.gm, at: time))")
            case .claim(let claim, let time):
                let outcome = try await store.record(claim, in: hunt, at: time)
                var answer = Answer(text: "\(outcome)")
                if case .found(let find, _, let card) = outcome { answer.find = find; answer.card = card }
                return answer
            case .revealHint(let cache, let cost, let player, let time):
                let (reveal, isNew) = try await store.revealHint(cache: cache, cost: cost, to: player, in: hunt, at: time)
                return Answer(text: "\(reveal) new: \(isNew)")
            case .seedTrackable(let name, let cache, let time):
                let trackable = try await store.seedTrackable(name: name, into: cache, in: hunt, by: Self.gm, at: time)
                return Answer(text: "\(trackable)", trackable: trackable)
            case .pickUp(let trackable, let cache, let player, let time):
                let picked = try await store.pickUp(trackable: trackable, from: cache, by: player, in: hunt, at: time)
                return Answer(text: "\(picked)", trackable: picked)
            case .drop(let trackable, let cache, let player, let time):
                return Answer(text: "\(try await store.drop(trackable: trackable, into: cache, by: player, in: hunt, at: time))")
            case .offerTrade(let from, let to, let give, let receive, let time):
                let trade = try await store.offerTrade(hunt: hunt.id, from: from, to: to, give: give, receive: receive,
                                                       at: time, lifetime: TradeOffer.defaultLifetime)
                return Answer(text: "\(trade)", trade: trade)
            case .acceptTrade(let id, let player, let time):
                return Answer(text: "\(try await store.acceptTrade(hunt: hunt.id, id: id, by: player, at: time))")
            case .declineTrade(let id, let player, let time):
                return Answer(text: "\(try await store.declineTrade(hunt: hunt.id, id: id, by: player, at: time))")
            case .cancelTrade(let id, let player, let time):
                return Answer(text: "\(try await store.cancelTrade(hunt: hunt.id, id: id, by: player, at: time))")
            case .fileReport(let cache, let kind, let text, let photo, let player, let time):
                let report = try await store.fileReport(cache: cache, kind: kind, text: text, photoSHA256: photo,
                                                        by: player, in: hunt, at: time)
                return Answer(text: "\(report)", report: report)
            case .resolveReport(let id, let resolution, let time):
                return Answer(text: "\(try await store.resolveReport(hunt: hunt.id, id: id, resolution: resolution, by: Self.gm, at: time))")
            case .voidFind(let id, let reason, let time):
                return Answer(text: "\(try await store.voidFind(hunt: hunt.id, id: id, reason: reason, by: Self.gm, at: time))")
            case .adjustPoints(let player, let amount, let reason, let time):
                try await store.adjustPoints(hunt: hunt.id, player: player, amount: amount, reason: reason, by: Self.gm, at: time)
                return Answer(text: "adjusted")
            case .setCacheDisabled(let disabled, let cache, let time):
                try await store.setCacheDisabled(disabled, cache: cache, reason: "replay", in: hunt, by: Self.gm, at: time)
                return Answer(text: "disabled \(disabled)")
            case .rotateSecret(let fingerprint, let time):
                try await store.recordSecretRotation(hunt: hunt.id, fingerprint: fingerprint, by: Self.gm, at: time)
                return Answer(text: "rotated")
            case .setHuntRunning(let running, let time):
                return Answer(text: "changed: \(try await store.setHuntRunning(running, hunt: hunt.id, by: Self.gm, at: time))")
            case .read(let which):
                return Answer(text: try await Self.read(which, from: store))
            }
        } catch {
            return Answer(text: "refused: \(error)", refused: true)
        }
    }

    static let readCount = 13
    /// Reads whose answer stays small as the ledger grows.
    static let smallReads = [3, 9, 10, 11, 12]

    /// One of the store's reads, as text.
    static func read(_ which: Int, from store: any GameStore) async throws -> String {
        let hunt = testHunt.id
        switch which {
        case 0: return "\(try await store.leaderboard(hunt: hunt))"
        case 1: return "\(try await store.pointsByFind(hunt: hunt).sorted { $0.key < $1.key })"
        case 2: return "\(try await store.flags(in: testHunt))"
        case 3: return "\(try await store.openReports(hunt: hunt))"
        case 4: return "\(try await store.trackables(hunt: hunt))"
        case 5: return "\(try await store.players(hunt: hunt))"
        case 6: return "\(try await store.finds(hunt: hunt, player: nil))"
        case 7: return "\(try await store.attempts(hunt: hunt))"
        case 8: return "\(try await store.hints(hunt: hunt, player: nil))"
        case 9: return "\(try await store.disabledCaches(hunt: hunt).sorted())"
        case 10: return "\(try await store.huntRunning(hunt: hunt))"
        case 11: return "\(try await store.headSeq())"
        default:
            var text = ""
            for player in try await store.players(hunt: hunt).suffix(5) {
                text += "\(player.id): \(try await store.collection(hunt: hunt, player: player.id))\n"
            }
            return text
        }
    }
}

/// The seeded script: picks each act from what the ledger holds so far (as SQLite answered), so
/// that most acts could succeed and some are refused on purpose.
struct ActScript {
    private var random: SplitMix64
    private var time = t0
    private var players: [Player] = []
    private var pins: [String: String] = [:]
    private var finds: [String] = []
    private var trackables: [String] = []
    /// Who picked each trackable up last (as far as the script saw).
    private var holders: [String: String] = [:]
    private var trades: [TradeOffer] = []
    private var reports: [String] = []
    private var claimIDs: [String] = []
    private var count = 0
    private let names = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned",
                         "Oda", "Pia", "Quin", "Rui", "Sol", "Tia", "Ugo", "Vi", "Wes", "Xia", "Yan", "Zoe", "Zé", "Inês",
                         "Ana Rita", "João"]
    private let caches = testHunt.caches.map(\.id) + ["Z9"]
    private let photos = ["1111", "2222", "3333", "4444"].map { String(repeating: $0, count: 16) }

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    private mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }
    /// A player's id; now and then one that does not exist, or their name instead.
    private mutating func somePlayer() -> String {
        if players.isEmpty || chance(3) { return "P999" }
        let player = pick(players)
        return chance(15) ? player.name.lowercased() : player.id
    }

    mutating func next(reading store: any GameStore) async throws -> ReplayAct {
        count += 1
        time = time.addingTimeInterval(Double(number(1...90)))
        let roll = players.count < 6 ? 0 : number(0...99)
        switch roll {
        case 0..<7:
            let name = chance(85) ? pick(names) + (chance(50) ? "" : " \(number(1...9))") : pick(["", "P3", "<b>x</b>", "A\u{200B}da"])
            let pin = chance(5) ? "12" : String(format: "%04d", number(0...9999))
            return .join(name: name, pin: pin, team: chance(40) ? pick(["Red", "Blue"]) : nil, at: time)
        case 7..<11:
            let player = players.isEmpty ? nil : pick(players)
            let pin = player.flatMap { chance(60) ? pins[$0.id] : nil } ?? "0000"
            return .signIn(name: player?.name ?? "Nobody", pin: pin, at: time)
        case 11..<12:
            return .resetPIN(player: somePlayer(), pin: chance(10) ? "1" : "4321", at: time)
        case 12..<45, 90...99:
            let cache = pick(caches)
            let coordinate = testHunt.cache(id: cache)?.coordinate ?? Coordinate(latitude: 40.65, longitude: -8.64)
            let location: Coordinate? = chance(5) ? nil : chance(20) ? coordinate
                : Coordinate(latitude: coordinate.latitude + Double(number(-20...20)) * 1e-5,
                             longitude: coordinate.longitude + Double(number(-20...20)) * 1e-5)
            let verdict: Verdict = chance(70) ? .claimable : pick([.tooFar, .forged, .outsideTimeWindow, .noLocation, .noCode])
            var claimID: String? = nil
            if chance(10), !claimIDs.isEmpty { claimID = pick(claimIDs) } else if chance(30) {
                claimID = "claim-\(count)"
                claimIDs.append(claimID!)
            }
            let claim = ClaimRecord(player: somePlayer(), hunt: testHunt.id, cache: verdict == .noCode ? nil : cache,
                                    time: time.addingTimeInterval(-Double(number(0...30))), location: location,
                                    method: pick(ClaimMethod.allCases),
                                    evidence: ClaimEvidence(photoSHA256: chance(40) ? pick(photos) : nil,
                                                            exifTime: chance(30) ? time : nil),
                                    verdict: verdict, claimID: claimID, lateSeconds: chance(10) ? number(60...3600) : nil)
            return .claim(claim, at: time)
        case 45..<50:
            return .revealHint(cache: pick(caches), cost: pick([0, 5, 10]), player: somePlayer(), at: time)
        case 50..<52:
            return .seedTrackable(name: pick(["Travel bug", "Coin", "Duck"]) + " \(count)", cache: pick(caches), at: time)
        case 52..<56:
            return .pickUp(trackable: trackables.isEmpty ? "K1" : pick(trackables), cache: pick(caches),
                           player: somePlayer(), at: time)
        case 56..<60:
            let held = holders.sorted { $0.key < $1.key }
            if !held.isEmpty, chance(80) {
                let (trackable, holder) = pick(held)
                return .drop(trackable: trackable, cache: pick(caches), player: holder, at: time)
            }
            return .drop(trackable: trackables.isEmpty ? "K1" : pick(trackables), cache: pick(caches),
                         player: somePlayer(), at: time)
        case 60..<66:
            let from = somePlayer(), to = somePlayer()
            let mine = (try? await store.collection(hunt: testHunt.id, player: from).map(\.id)) ?? []
            let theirs = (try? await store.collection(hunt: testHunt.id, player: to).map(\.id)) ?? []
            let give = chance(85) ? Array(mine.prefix(number(0...2))) : ["C999"]
            let receive = chance(85) ? Array(theirs.suffix(number(0...1))) : finds.suffix(1).map { $0 }
            return .offerTrade(from: from, to: to, give: give, receive: receive, at: time)
        case 66..<72:
            let trade = trades.suffix(12).randomElement(using: &random)
            let id = trade?.id ?? "T1"
            let who = trade.map { chance(75) ? $0.to : chance(50) ? $0.from : somePlayer() } ?? somePlayer()
            switch number(0...3) {
            case 0, 1: return .acceptTrade(id: id, player: who, at: time)
            case 2: return .declineTrade(id: id, player: who, at: time)
            default: return .cancelTrade(id: id, player: trade.map { chance(75) ? $0.from : $0.to } ?? who, at: time)
            }
        case 72..<75:
            let text = chance(10) ? String(repeating: "x", count: 1_200) : pick(["The lid is cracked", "Gone!", "Molhado 💧", ""])
            return .fileReport(cache: pick(caches), kind: pick(ReportKind.allCases), text: text,
                               photo: chance(20) ? pick(photos) : nil, player: somePlayer(), at: time)
        case 75..<77:
            return .resolveReport(id: reports.isEmpty || chance(10) ? "R1" : pick(reports),
                                  resolution: pick(["fixed", "replaced", ""]), at: time)
        case 77..<79:
            return .voidFind(id: finds.isEmpty || chance(10) ? "F1" : pick(finds), reason: pick(["cheated", "duplicate"]), at: time)
        case 79..<81:
            return .adjustPoints(player: somePlayer(), amount: number(-20...20), reason: "bonus", at: time)
        case 81..<83:
            return .setCacheDisabled(chance(50), cache: pick(caches), at: time)
        case 83..<84:
            return .rotateSecret(fingerprint: String(repeating: "ab", count: 8) + "\(count)", at: time)
        case 84..<86:
            return .setHuntRunning(chance(70), at: time)
        case 86..<90:
            // Reads of a few rows often; of whole tables (which the end compares anyway) rarely.
            return .read(chance(85) ? pick(ReplayAct.smallReads) : number(0...(ReplayAct.readCount - 1)))
        default:
            return .read(pick(ReplayAct.smallReads))
        }
    }

    /// Keeps the ids an answer made, for later acts to name.
    mutating func learn(from answer: ReplayAct.Answer, of act: ReplayAct) {
        if let player = answer.player {
            players.append(player)
            if case .join(_, let pin, _, _) = act { pins[player.id] = pin }
        }
        if case .resetPIN(let player, let pin, _) = act, !answer.refused,
           let id = players.first(where: { $0.id == player || $0.name.lowercased() == player })?.id {
            pins[id] = pin
        }
        if let find = answer.find { finds.append(find.id) }
        if let trackable = answer.trackable {
            if !trackables.contains(trackable.id) { trackables.append(trackable.id) }
            holders[trackable.id] = trackable.holder
        }
        if let trade = answer.trade { trades.append(trade) }
        if let report = answer.report { reports.append(report.id) }
    }
}
