import Foundation

extension LedgerEvent {
    /// The event that follows `head` in the chain, whichever store appends it: the next seq,
    /// linked to the head's hash, its body (which may use its own seq: ids like `F42`) in the one
    /// canonical JSON form (format 2, ``EventSeal``), hashed with ``EventHash``. Returns the body value too, so the
    /// projection need not parse what was just written.
    ///
    /// ```swift
    /// let (event, body) = try LedgerEvent.following((seq: 41, hash: h), kind: .reportResolved, hunt: "DEMO",
    ///                                               actor: "gm", at: .now) { _ in ReportResolved(report: "R9", resolution: "fixed") }
    /// ```
    static func following<Body: Encodable & Sendable>(
        _ head: (seq: Int64, hash: String), kind: EventKind, hunt: String, actor: String, at time: Date,
        body makeBody: (Int64) throws -> Body
    ) throws -> (event: LedgerEvent, body: Body) {
        let seq = head.seq + 1
        let value = try makeBody(seq)
        // Format 2: the body stored holds its private part; the hash covers its commitment.
        let (body, hashed) = try EventSeal.seal(value) { EventSeal.salt(seq: seq, prevHash: head.hash) }
        let timeMs = time.millisecondsSince1970
        let hash = EventHash.computeSealed(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor, kind: kind.rawValue,
                                           body: hashed, prevHash: head.hash)
        return (LedgerEvent(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor, kind: kind.rawValue, body: body,
                            prevHash: head.hash, hash: hash), value)
    }
}
