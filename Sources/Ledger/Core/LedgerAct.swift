import Foundation

/// One act on the ledger, written once for every store: the facts it reads (queries through a
/// ``FactReader``), a decision over them that names the events to append and the answer, and
/// nothing else. A store is the engine that runs it: it reads the facts inside its write
/// transaction, appends the events through one appender, applies the one projection, and
/// commits in groups.
///
/// ```swift
/// let act = LedgerAct<Bool> { facts in
///     guard try facts.huntRunning(hunt) != running else { return .answer(false) }
///     return Decision(events: [NewEvent(running ? .huntStarted : .huntStopped, hunt: hunt, actor: actor,
///                                       at: time) { _ in HuntRunning() }]) { _, _ in true }
/// }
/// let changed = try await store.perform(act)
/// ```
///
/// `decide` must be a pure function of what it reads: an engine that reads asynchronously
/// (PostgreSQL) runs it again with each fact it asked for until it has them all
/// (``FactReader/rows(_:_:)`` throws ``NeedFact`` for one it has not read yet). So it must not
/// catch errors it did not throw itself.
public struct LedgerAct<Answer: Sendable>: Sendable {
    /// The claim the act records, if it does: a batch reads its claims' facts together.
    let claim: ClaimKey?
    let decide: @Sendable (any FactReader) throws -> Decision<Answer>

    init(claim: ClaimKey? = nil, _ decide: @escaping @Sendable (any FactReader) throws -> Decision<Answer>) {
        self.claim = claim
        self.decide = decide
    }
}

/// What an act decided: the events to append, writes to the private tables that go with them
/// (a PIN's hash, sessions that end), and how to answer once they are in.
struct Decision<Answer> {
    var events: [NewEvent]
    var privateWrites: ([AppendedEvent]) -> [ProjectionStatement]
    /// The answer, from the state after the events (read through the same reader) and the
    /// events as appended.
    var answer: (any FactReader, [AppendedEvent]) throws -> Answer

    init(events: [NewEvent], privateWrites: @escaping ([AppendedEvent]) -> [ProjectionStatement] = { _ in [] },
         answer: @escaping (any FactReader, [AppendedEvent]) throws -> Answer) {
        self.events = events
        self.privateWrites = privateWrites
        self.answer = answer
    }

    /// Nothing to write: the answer.
    static func answer(_ value: Answer) -> Decision {
        Decision(events: []) { _, _ in value }
    }

    /// Writes to the private tables only (no game act: a session, a wrong guess).
    static func privateOnly(_ statements: [ProjectionStatement], answer value: Answer) -> Decision {
        Decision(events: [], privateWrites: { _ in statements }) { _, _ in value }
    }
}

/// An event an act appends, with a body that may use the seq it will get (ids like `F42`).
struct NewEvent {
    let kind: EventKind
    /// Links the event to the head of the chain.
    let link: ((seq: Int64, hash: String)) throws -> AppendedEvent

    init<Body: Encodable & Sendable>(_ kind: EventKind, hunt: String, actor: String, at time: Date,
                                     body: @escaping (Int64) throws -> Body) {
        self.init(kind, hunt: hunt, actorForSeq: { _ in actor }, at: time, body: body)
    }

    /// An event whose actor is named after its own seq too (a player's join).
    init<Body: Encodable & Sendable>(_ kind: EventKind, hunt: String, actorForSeq actor: @escaping (Int64) -> String,
                                     at time: Date, body: @escaping (Int64) throws -> Body) {
        self.kind = kind
        link = { head in
            let (event, value) = try LedgerEvent.following(head, kind: kind, hunt: hunt, actor: actor(head.seq + 1),
                                                           at: time, body: body)
            return AppendedEvent(event: event, body: value)
        }
    }
}

/// An event as appended, with the body value it was made from.
struct AppendedEvent {
    let event: LedgerEvent
    let body: any Sendable

    var seq: Int64 { event.seq }

    /// The body as the act made it; another type is a bug in the act, told as a corrupt ledger
    /// rather than a crash.
    func body<Body>(as type: Body.Type) throws -> Body {
        guard let body = body as? Body else {
            throw LedgerError.corrupt("event \(event.seq) (\(event.kind)) was made with a \(Swift.type(of: body)), not a \(Body.self)")
        }
        return body
    }
}

/// A read of the ledger, written once for every store.
///
/// ```swift
/// let open = try await store.query(LedgerRead { facts in try facts.rows("SELECT * FROM reports …", hunt).map(Report.init) })
/// ```
public struct LedgerRead<Answer: Sendable>: Sendable {
    /// Reads of several statements that must agree (one snapshot).
    let consistent: Bool
    let read: @Sendable (any FactReader) throws -> Answer

    init(consistent: Bool = false, _ read: @escaping @Sendable (any FactReader) throws -> Answer) {
        self.consistent = consistent
        self.read = read
    }
}
