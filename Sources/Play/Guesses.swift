import Foundation
import GeoQR
import Ledger

/// Wrong guesses counted before the ledger's own count: sign-in attempts by network and player
/// (``GeoQR/PINPolicy/perAddress``), by network for any name (``GeoQR/PINPolicy/perNetwork``)
/// and by player from every untrusted network together (``GeoQR/PINPolicy/perName``); typed
/// codes by the player typing them (``GeoQR/PINPolicy/typedCodes``). It also remembers the
/// networks a player signed in from (``trust(_:for:at:)``): there only the first count applies.
///
/// A server keeps them in the store (``init(store:hunt:)``: the private `guesses` table), so
/// every server on one database counts the same guesses, and a restart forgives nothing. A
/// desk command has no one to share them with and keeps them in memory for its one run.
///
/// ```swift
/// let guesses = Guesses(store: store, hunt: "DEMO")
/// let ada = Guesses.Subject.pin(address: Guesses.network(of: "203.0.113.9"), name: "P3")
/// try await guesses.attempt(ada, at: now)      // counted first; throws lockedOut(until:) past the limit
/// try await guesses.refund(ada)                // it was the right PIN after all
/// ```
public actor Guesses {
    /// Who is guessing what.
    public enum Subject: Hashable, Sendable {
        /// Sign-ins for this player id (or name key, for a name that is no player's) from this
        /// network (``Guesses/network(of:)``).
        case pin(address: String, name: String)
        /// Sign-ins from this network for players it is not trusted for, and unknown names.
        case pinsFrom(network: String)
        /// Sign-ins for this player from every network it is not trusted for.
        case pinsFor(name: String)
        /// Typed codes, by this player id.
        case typedCode(player: String)

        public var policy: PINPolicy {
            switch self {
            case .pin: .perAddress
            case .pinsFrom: .perNetwork
            case .pinsFor: .perName
            case .typedCode: .typedCodes
            }
        }

        /// The subject's key in the store's `guesses` table.
        var key: String {
            switch self {
            case .pin(let address, let name): "pin \(address) \(name)"
            case .pinsFrom(let network): "pins-from \(network)"
            case .pinsFor(let name): "pins-for \(name)"
            case .typedCode(let player): "code \(player)"
            }
        }
    }

    private let kept: (store: any GameStore, hunt: String)?
    private var states: [Subject: PINState] = [:]
    private var trusted: [String: Date] = [:]
    /// More subjects than this and those whose lockout ran out are forgotten: a flood of
    /// made-up addresses cannot fill the memory.
    private let capacity: Int

    /// Guesses kept in memory, for one run of a command.
    public init(capacity: Int = 100_000) {
        self.kept = nil
        self.capacity = capacity
    }

    /// Guesses kept in the store, shared by every process on it.
    public init(store: any GameStore, hunt: String) {
        self.kept = (store, hunt)
        self.capacity = 0
    }

    /// Throws ``GeoQR/GameRuleViolation/lockedOut(until:)`` while the subject is locked out.
    public func check(_ subject: Subject, at now: Date) async throws {
        try subject.policy.checkNotLocked(try await state(of: subject), at: now)
    }

    /// Counts a wrong guess and returns the subject's state after it (locked when it reached
    /// the policy's limit).
    @discardableResult
    public func failed(_ subject: Subject, at now: Date) async throws -> PINState {
        if let kept {
            return try await kept.store.countWrongGuess(hunt: kept.hunt, subject: subject.key, policy: subject.policy, at: now)
        }
        if states.count >= capacity { forgetSettled(at: now) }
        let after = subject.policy.afterFailure(states[subject] ?? PINState(), at: now)
        states[subject] = after
        return after
    }

    /// Counts an attempt before it is judged, and throws
    /// ``GeoQR/GameRuleViolation/lockedOut(until:)`` when it is past the limit. Counting first
    /// (one transaction: read, count, write) lets no burst of simultaneous guesses through
    /// between a check and a count. A right guess gives it back (``refund(_:)``).
    public func attempt(_ subject: Subject, at now: Date) async throws {
        let policy = subject.policy
        let after: PINState
        if let kept {
            after = try await kept.store.countWrongGuess(hunt: kept.hunt, subject: subject.key, policy: policy, at: now)
        } else {
            if states.count >= capacity { forgetSettled(at: now) }
            after = policy.afterFailure(states[subject] ?? PINState(), at: now)
            states[subject] = after
        }
        if !policy.admits(after), let until = after.lockedUntil { throw GameRuleViolation.lockedOut(until: until) }
    }

    /// An attempt counted by ``attempt(_:at:)`` was right: it no longer counts.
    public func refund(_ subject: Subject) async throws {
        let policy = subject.policy
        if let kept {
            _ = try await kept.store.changeGuesses(hunt: kept.hunt, subject: subject.key) { policy.afterRefund($0) }
        } else if let state = states[subject] {
            states[subject] = policy.afterRefund(state)
        }
    }

    /// Trusts `network` for `player` for ``GeoQR/PINPolicy/trustLifetime`` from `now`: the
    /// player signed in from it with the right PIN.
    public func trust(_ network: String, for player: String, at now: Date) async throws {
        let until = PINState(failures: 0, lockedUntil: now.addingTimeInterval(PINPolicy.trustLifetime))
        if let kept {
            _ = try await kept.store.changeGuesses(hunt: kept.hunt, subject: Self.trustKey(network, player)) { _ in until }
        } else {
            trusted[Self.trustKey(network, player)] = until.lockedUntil
        }
    }

    /// Whether the player signed in from `network` within ``GeoQR/PINPolicy/trustLifetime``.
    public func trusts(_ network: String, for player: String, at now: Date) async throws -> Bool {
        let until: Date?
        if let kept {
            // The `guesses` table holds it too, as a row whose `locked_until_ms` is when the trust ends.
            until = try await kept.store.guesses(hunt: kept.hunt, subject: Self.trustKey(network, player)).lockedUntil
        } else {
            until = trusted[Self.trustKey(network, player)]
        }
        return until.map { now < $0 } ?? false
    }

    private static func trustKey(_ network: String, _ player: String) -> String { "trust \(network) \(player)" }

    /// The network an address stands for in the counts: an IPv4 address itself, an IPv6
    /// address's /64 (one home or phone gets a whole /64, so counting single IPv6 addresses
    /// would give one guesser 2^64 of them); an IPv4 address written as IPv6 (`::ffff:a.b.c.d`)
    /// is the IPv4 address. Anything else (a proxy's label) is taken as it is.
    ///
    /// ```swift
    /// Guesses.network(of: "2001:db8:1:2:aaaa::1")   // "2001:db8:1:2::/64"
    /// ```
    public static func network(of address: String) -> String {
        var text = address.lowercased()
        if text.hasPrefix("[") { text = String(text.dropFirst().prefix { $0 != "]" }) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        guard text.contains(":"), let groups = ipv6Groups(text) else { return text }
        if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xffff {
            return "\(groups[6] >> 8).\(groups[6] & 0xff).\(groups[7] >> 8).\(groups[7] & 0xff)"
        }
        return groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail), or nil.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        func parse(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var groups: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() {
                if i == pieces.count - 1, piece.contains(".") {
                    let bytes = piece.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard bytes.count == 4 else { return nil }
                    groups += [UInt16(bytes[0]) << 8 | UInt16(bytes[1]), UInt16(bytes[2]) << 8 | UInt16(bytes[3])]
                } else {
                    guard (1...4).contains(piece.count), let group = UInt16(piece, radix: 16) else { return nil }
                    groups.append(group)
                }
            }
            return groups
        }
        let halves = text.components(separatedBy: "::")
        switch halves.count {
        case 1:
            guard let all = parse(Substring(text)), all.count == 8 else { return nil }
            return all
        case 2:
            guard let head = parse(Substring(halves[0])), let tail = parse(Substring(halves[1])), head.count + tail.count < 8 else { return nil }
            return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        default:
            return nil
        }
    }

    /// A right guess clears the count.
    public func succeeded(_ subject: Subject) async throws {
        if let kept {
            // Most right guesses follow no wrong one: read before writing, a write costs a commit.
            guard try await kept.store.guesses(hunt: kept.hunt, subject: subject.key).failures > 0 else { return }
            try await kept.store.clearGuesses(hunt: kept.hunt, subject: subject.key)
        } else {
            states[subject] = nil
        }
    }

    /// When the subject's running lockout ends, or nil when none runs.
    public func lock(of subject: Subject, at now: Date) async throws -> Date? {
        try await state(of: subject).lockedUntil.flatMap { now < $0 ? $0 : nil }
    }

    /// Tries left for the subject before its next lockout.
    public func remainingTries(_ subject: Subject) async throws -> Int {
        subject.policy.remainingTries(try await state(of: subject))
    }

    private func state(of subject: Subject) async throws -> PINState {
        guard let kept else { return states[subject] ?? PINState() }
        return try await kept.store.guesses(hunt: kept.hunt, subject: subject.key)
    }

    private func forgetSettled(at now: Date) {
        states = states.filter { $0.value.lockedUntil.map { now < $0 } ?? false }
        if states.count >= capacity { states.removeAll() }
    }
}
