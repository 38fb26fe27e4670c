import Foundation

/// Which export of the ledger: the one to publish with the results, or the game master's.
public enum LedgerExportForm: String, Sendable, CaseIterable {
    /// No position a player stood at, no report text or photo, no game master's answer to a
    /// report, no player's name (joins sealed since "v13: privacy"), no PIN check or reset: each private part is replaced by its commitment, PIN
    /// events and events of format 1 that hold private fields are withheld. Every hash of it can
    /// still be recomputed (`scripts/verify-ledger-export.py`).
    case published
    /// Every event as the ledger stores it, private parts and their salts included.
    case complete
}

/// One line of `geoqr ledger export` (and of the control room's ledger download): an event, or,
/// in the published form, what is left of one withheld.
///
/// ```swift
/// let line = try JSONEncoder().encode(event.exported(.published))
/// ```
public struct ExportedEvent: Codable, Sendable, Equatable {
    public var seq: Int64
    public var timeMs: Int64?
    public var hunt: String?
    public var actor: String?
    public var kind: String?
    /// The body: as stored in the complete form; as hashed (private part as its commitment) in
    /// the published one.
    public var body: String?
    public var prevHash: String
    public var hash: String
    /// Why the event is not shown, in the published form: ``withheldPrivate`` or
    /// ``withheldFormatOne``.
    public var withheld: String?
    /// A withheld event of format 2: ``EventHash/content(timeMs:hunt:actor:kind:body:)``, from
    /// which its hash is recomputed.
    public var contentHash: String?

    enum CodingKeys: String, CodingKey {
        case seq, timeMs = "time_ms", hunt, actor, kind, body, prevHash = "prev_hash", hash, withheld
        case contentHash = "content_hash"
    }

    /// A PIN check or reset, withheld whole: its hash is the link hash of `content_hash`.
    public static let withheldPrivate = "private"
    /// An event written before format 2 whose hash covers private fields: only its link to the
    /// chain can be checked.
    public static let withheldFormatOne = "format-1"

    /// Kinds the published ledger never shows: the history of sign-ins.
    static let privateKinds: Set<String> = [EventKind.pinChecked.rawValue, EventKind.pinReset.rawValue]
    /// Kinds whose format-1 bodies hold private fields in the hashed text.
    static let formatOnePrivateKinds: Set<String> = privateKinds.union([
        EventKind.claimAttempted.rawValue, EventKind.findRecorded.rawValue,
        EventKind.reportFiled.rawValue, EventKind.reportResolved.rawValue,
    ])
}

extension LedgerEvent {
    /// The event as `form` exports it.
    public func exported(_ form: LedgerExportForm) -> ExportedEvent {
        var out = ExportedEvent(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor, kind: kind, body: body,
                                prevHash: prevHash, hash: hash)
        guard form == .published else { return out }
        let reading = EventSeal.read(body)
        if reading.format == EventSeal.format {
            if ExportedEvent.privateKinds.contains(kind) {
                return ExportedEvent(seq: seq, prevHash: prevHash, hash: hash, withheld: ExportedEvent.withheldPrivate,
                                     contentHash: EventHash.content(timeMs: timeMs, hunt: hunt, actor: actor, kind: kind,
                                                                    body: reading.hashedBody))
            }
            out.body = reading.hashedBody
            return out
        }
        // Format 1: the hash covers the body as it is, so a private field cannot be dropped from
        // it; nor can a join whose PIN hash was moved out of it be recomputed without that hash.
        if ExportedEvent.formatOnePrivateKinds.contains(kind) || EventHash.expected(for: self) != hash {
            return ExportedEvent(seq: seq, prevHash: prevHash, hash: hash, withheld: ExportedEvent.withheldFormatOne)
        }
        return out
    }
}
