import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Ledger
import PhotoMetadata

/// `geoqr claim`: scan photos and record what they prove in the ledger.
struct ClaimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "Claim finds from photos of cache codes, and reveal their messages.",
        discussion: """
        Each photo is judged as geoqr scan judges it (genuine code, near its cache, inside the \
        hunt's time window), then recorded in the ledger for the player. A claimable code \
        becomes a find: it earns points, grants the cache's card and prints the message the \
        card reveals. Claiming the same cache again answers with the original find. Every \
        other verdict (too-far, forged…) is kept as an attempt for the game master.

        The PIN comes from --pin or the first line of standard input; a wrong one ends the \
        command before any photo is read.

        Exit status: 0 when at least one code is a find (new or earlier), 1 otherwise.

        Examples:
          geoqr claim IMG_0042.jpg --hunt demo --player Ada --pin 4321
          geoqr claim a2.png --hunt demo --player Ada --at 40.62800,-8.65990 --json
        """
    )

    @Argument(help: ArgumentHelp("Photos of cache codes.", valueName: "PHOTO"))
    var photos: [String] = []

    @Option(help: "Hunt name (demo for caches/demo.json) or hunt file.")
    var hunt: String

    @OptionGroup var playerOptions: PlayerOptions

    @OptionGroup var claimOptions: ClaimOptions

    @Flag(help: "Print one JSON object per code, one per line.")
    var json = false

    func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("name at least one photo to claim with") }
    }

    func run() async throws {
        let (hunt, secret) = try claimOptions.huntAndSecret(hunt)
        let store = try claimOptions.dataOptions.ledger(mustExist: true)
        let player = try await playerOptions.signIn(store, hunt: hunt)
        let finder = CodeFinder()
        var finds = 0
        for path in photos {
            let data: Data, judgements: [ClaimJudgement], meta: PhotoMetadata?
            do {
                data = try FileAccess.read(path, limit: ScanCommand.maxFileBytes)
                let codes: [String]
                (codes, meta) = try finder.photo(inFile: data)
                judgements = hunt.judge(claim(codes: codes, meta: meta), secret: secret)
            } catch {
                warn("\(path): \(error)")
                continue
            }
            let evidence = ClaimEvidence(photo: data, exifTime: meta?.gpsTime ?? meta?.takenAt(assuming: .current))
            for j in judgements {
                let record = ClaimRecord(player: player.id, hunt: hunt.id, cache: j.cacheID, time: j.scanTime,
                                         location: j.location?.coordinate, method: .photo, evidence: evidence,
                                         verdict: ClaimVerdictCode(rawValue: j.verdict.rawValue))
                let outcome = try await game { try await store.record(record, in: hunt) }
                let line = ClaimLine(file: path, judgement: j, outcome: outcome, hunt: hunt)
                if line.isFind { finds += 1 }
                if json { try printJSONLine(line) } else { print(line.text) }
            }
        }
        if finds == 0 { throw ExitCode.failure }
    }

    /// The codes, and where and when the photo says it was taken (else --at, else now).
    private func claim(codes: [String], meta: PhotoMetadata?) -> Claim {
        let fromPhoto = meta?.coordinate.map {
            ClaimLocation(coordinate: $0, accuracy: meta?.accuracy, source: .exif, time: meta?.gpsTime)
        }
        return Claim(payloads: codes, location: fromPhoto ?? claimOptions.location(source: .at),
                     takenAt: meta?.takenAt(assuming: .current), claimedAt: Date())
    }
}

/// One claimed code, as `geoqr claim` prints it.
struct ClaimLine: Encodable {
    let file: String
    let judgement: ClaimJudgement
    let outcome: ClaimOutcome
    let hunt: Hunt

    var isFind: Bool {
        if case .attempt = outcome { return false }
        return true
    }

    /// The cache's message, once the player has found it.
    var message: String? {
        guard isFind, let id = judgement.cacheID else { return nil }
        return hunt.cache(id: id)?.message
    }

    var text: String {
        let label = judgement.cacheLabel
        switch outcome {
        case .found(let find, let points, let card):
            let cardText = card.map { ", card \($0)" } ?? " (you already hold its card)"
            return "\(file): \(label): found (\(find.id), \(points) points\(cardText)): \(message ?? "")"
        case .alreadyFound(let find):
            return "\(file): \(label): already found (\(find.id), \(ISO8601DateFormatter().string(from: find.time))): \(message ?? "")"
        case .attempt(let verdict) where verdict.rawValue == judgement.verdict.rawValue:
            return "\(file): \(judgement.line) (kept as an attempt)"
        case .attempt(let verdict):
            return "\(file): \(label): \(verdict) (kept as an attempt)"
        }
    }

    enum Key: String, CodingKey {
        case file, verdict, outcome, cache, name, find, points, card, message, distanceM = "distance_m", line
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(file, forKey: .file)
        try c.encode(judgement.cacheID, forKey: .cache)
        try c.encode(judgement.cacheName, forKey: .name)
        try c.encode(judgement.distance, forKey: .distanceM)
        try c.encode(message, forKey: .message)
        try c.encode(text, forKey: .line)
        var find: Find?, points: Int?, card: String?
        switch outcome {
        case .found(let f, let p, let granted):
            (find, points, card) = (f, p, granted)
            try c.encode("found", forKey: .outcome)
            try c.encode("claimable", forKey: .verdict)
        case .alreadyFound(let f):
            find = f
            try c.encode("already-found", forKey: .outcome)
            try c.encode("already-found", forKey: .verdict)
        case .attempt(let verdict):
            try c.encode("attempt", forKey: .outcome)
            try c.encode(verdict.rawValue, forKey: .verdict)
        }
        try c.encode(find?.id, forKey: .find)
        try c.encode(points, forKey: .points)
        try c.encode(card, forKey: .card)
    }
}
