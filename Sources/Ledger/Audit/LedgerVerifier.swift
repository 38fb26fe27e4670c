import GRDB

/// Checks a ledger two ways: the hash chain (every event links to the one before and hashes to
/// what it says), and the derived tables (rebuilt from the events in a scratch database and
/// compared row by row). The earliest event where either goes wrong is reported.
enum LedgerVerifier {
    static func verify(_ db: Database) throws -> LedgerVerification {
        let scratch = try DatabaseQueue()
        try LedgerSchema.migrator.migrate(scratch)
        var count = 0
        var previous = LedgerEvent.genesisHash
        var expectedSeq: Int64 = 1
        var chainBreak: (seq: Int64, problem: String)?
        var replayable = true
        let chained = try Credential.chainedHashes(db)
        let events = try LedgerEvent.fetchCursor(db, sql: "SELECT * FROM events ORDER BY seq")
        try scratch.write { rebuilt in
            while let event = try events.next() {
                count += 1
                if chainBreak == nil {
                    chainBreak = check(event, pinHash: chained[event.seq], expectedSeq: expectedSeq, previous: previous)
                }
                // Replay goes on past a broken link, so derived rows shaped before it still compare.
                if replayable {
                    do { try StateProjection.apply(event, rebuilt) } catch {
                        replayable = false
                        if chainBreak == nil {
                            chainBreak = (event.seq, "event \(event.seq) (\(event.kind)) cannot be replayed: \(error)")
                        }
                    }
                }
                previous = event.hash
                expectedSeq = event.seq + 1
            }
        }
        var report = LedgerVerification(events: count, headHash: previous)
        var firstBad = chainBreak
        // Past a broken link the events themselves are suspect, so only a derived row shaped
        // before it (a hand edit of the tables) can name an earlier event.
        let divergence = try scratch.read { rebuilt in try firstDivergence(stored: db, rebuilt: rebuilt) }
        if let divergence, chainBreak == nil || divergence.seq < chainBreak!.seq { firstBad = divergence }
        report.firstBadSeq = firstBad?.seq
        report.problem = firstBad?.problem
        return report
    }

    /// `pinHash` is the PIN hash moved out of the event's body by migration "v3: credentials
    /// outside the chain", which its hash still covers.
    private static func check(_ event: LedgerEvent, pinHash: String?, expectedSeq: Int64, previous: String) -> (Int64, String)? {
        if event.seq != expectedSeq {
            return (expectedSeq, "event \(expectedSeq) is missing (the next one is \(event.seq))")
        }
        if event.prevHash != previous {
            return (event.seq, "event \(event.seq) does not link to event \(event.seq - 1) (previous hash differs)")
        }
        var hashed = event
        if let pinHash {
            guard let body = try? ChainedPINHash.restore(event.body, pinHash: pinHash) else {
                return (event.seq, "event \(event.seq) (\(event.kind)) was altered: its body is not a player's join")
            }
            hashed.body = body
        }
        if EventHash.expected(for: hashed) != event.hash {
            if pinHash == nil, event.kind == EventKind.playerJoined.rawValue {
                return (event.seq, "event \(event.seq) (\(event.kind)) does not match its hash: the PIN hash moved out of it "
                                   + "is missing from the credentials table, or the event was altered")
            }
            return (event.seq, "event \(event.seq) (\(event.kind)) was altered: its hash does not match its contents")
        }
        return nil
    }

    /// The earliest event at which a stored derived table differs from the rebuilt one.
    private static func firstDivergence(stored: Database, rebuilt: Database) throws -> (seq: Int64, problem: String)? {
        var earliest: (seq: Int64, problem: String)?
        for (table, order) in LedgerSchema.derivedTables {
            let mine = try Row.fetchAll(stored, sql: "SELECT * FROM \(table) ORDER BY \(order)")
            let truth = try Row.fetchAll(rebuilt, sql: "SELECT * FROM \(table) ORDER BY \(order)")
            for i in 0..<max(mine.count, truth.count) {
                let a = i < mine.count ? mine[i] : nil, b = i < truth.count ? truth[i] : nil
                if a == b { continue }
                // The events' version of the row says which event last shaped it.
                let seq: Int64 = (b?["seq"] as Int64?) ?? (a?["seq"] as Int64?) ?? 0
                let key = (b ?? a).map { String(describing: $0.databaseValues.first!) } ?? "?"
                let what = a == nil ? "is missing" : b == nil ? "should not exist" : "differs from what the events say"
                let problem = "table \(table): row \(key) \(what) (event \(seq))"
                if earliest == nil || seq < earliest!.seq { earliest = (seq, problem) }
                break
            }
        }
        return earliest
    }
}
