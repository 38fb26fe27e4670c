import Foundation
import GeoQR

/// Wrong guesses a server counts before the ledger does: PINs by the address guessing and the
/// name guessed (``GeoQR/PINPolicy/perAddress``), and typed codes by the player typing them
/// (``GeoQR/PINPolicy/typedCodes``). Kept in memory: a restart forgives them, the ledger's
/// slower count per player (``GeoQR/PINPolicy/perPlayer``) does not.
///
/// ```swift
/// let guesses = Guesses()
/// let ada = Guesses.Subject.pin(address: "203.0.113.9", name: "ada")
/// try await guesses.check(ada, at: now)        // throws lockedOut(until:) while one runs
/// let state = await guesses.failed(ada, at: now)
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
    }

    private var states: [Subject: PINState] = [:]
    /// More subjects than this and those whose lockout ran out are forgotten: a flood of
    /// made-up addresses cannot fill the memory.
    private let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Throws ``GeoQR/GameRuleViolation/lockedOut(until:)`` while the subject is locked out.
    public func check(_ subject: Subject, at now: Date) throws(GameRuleViolation) {
        guard let state = states[subject] else { return }
        try subject.policy.checkNotLocked(state, at: now)
    }

    /// Counts a wrong guess and returns the subject's state after it (locked when it reached
    /// the policy's limit).
    @discardableResult
    public func failed(_ subject: Subject, at now: Date) -> PINState {
        if states.count >= capacity { forgetSettled(at: now) }
        let after = subject.policy.afterFailure(states[subject] ?? PINState(), at: now)
        states[subject] = after
        return after
    }

    /// A right guess clears the count.
    public func succeeded(_ subject: Subject) {
        states[subject] = nil
    }

    /// Tries left for the subject before its next lockout.
    public func remainingTries(_ subject: Subject) -> Int {
        subject.policy.remainingTries(states[subject] ?? PINState())
    }

    private func forgetSettled(at now: Date) {
        states = states.filter { $0.value.lockedUntil.map { now < $0 } ?? false }
        if states.count >= capacity { states.removeAll() }
    }
}
