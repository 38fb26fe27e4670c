import Foundation
import GeoQR
import Ledger

/// Wrong guesses counted before the ledger's own count: PINs by the address guessing and the
/// name guessed (``GeoQR/PINPolicy/perAddress``), and typed codes by the player typing them
/// (``GeoQR/PINPolicy/typedCodes``).
///
/// A server keeps them in the store (``init(store:hunt:)``: the private `guesses` table), so
/// every server on one database counts the same guesses, and a restart forgives nothing. A
/// desk command has no one to share them with and keeps them in memory for its one run.
///
/// ```swift
/// let guesses = Guesses(store: store, hunt: "DEMO")
/// let ada = Guesses.Subject.pin(address: "203.0.113.9", name: "ada")
/// try await guesses.check(ada, at: now)        // throws lockedOut(until:) while one runs
/// let state = try await guesses.failed(ada, at: now)
/// ```
public actor Guesses {
    /// Who is guessing what.
    public enum Subject: Hashable, Sendable {
        /// PINs for the player with this name key (``GeoQR/PlayerName/key(_:)``), from this address.
        case pin(address: String, name: String)
        /// Typed codes, by this player id.
        case typedCode(player: String)

        var policy: PINPolicy {
            switch self {
            case .pin: .perAddress
            case .typedCode: .typedCodes
            }
        }

        /// The subject's key in the store's `guesses` table.
        var key: String {
            switch self {
            case .pin(let address, let name): "pin \(address) \(name)"
            case .typedCode(let player): "code \(player)"
            }
        }
    }

    private let kept: (store: any GameStore, hunt: String)?
    private var states: [Subject: PINState] = [:]
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
