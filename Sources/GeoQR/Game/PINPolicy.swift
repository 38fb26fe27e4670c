import Foundation

/// How PINs are checked and when repeated wrong ones lock a player out.
///
/// The policy is pure: the store passes in the player's ``PINState`` and the time.
///
/// ```swift
/// let policy = PINPolicy()                      // 5 tries, then 15 minutes
/// var state = PINState()
/// state = policy.afterFailure(state, at: now)   // 4 tries left
/// try policy.checkNotLocked(state, at: now)
/// ```
public struct PINPolicy: Sendable, Equatable {
    /// Four digits is what a phone keypad invites; the hash makes it no weaker to store.
    public static let minLength = 4
    public static let maxLength = 64

    /// Wrong PINs in a row that lock the player out.
    public var maxFailures: Int
    /// How long the lockout lasts.
    public var lockout: TimeInterval

    /// Wrong PINs from one address for one player name: 5, then that address waits 15
    /// minutes for that name. A rival guessing locks out only themself, never the player.
    public static let perAddress = PINPolicy(maxFailures: 5, lockout: 15 * 60)
    /// Wrong PINs for one player from anywhere, on a server that also counts per address
    /// (``perAddress``): slower, so guessing from many addresses still stops, while one
    /// rival's five tries never lock the player out.
    public static let perPlayer = PINPolicy(maxFailures: 20, lockout: 15 * 60)
    /// Wrong typed codes from one player: 5, then 15 minutes without typing codes. A typed
    /// code's 40-bit MAC cannot be guessed at that pace.
    public static let typedCodes = PINPolicy(maxFailures: 5, lockout: 15 * 60)

    public init(maxFailures: Int = 5, lockout: TimeInterval = 15 * 60) {
        self.maxFailures = maxFailures
        self.lockout = lockout
    }

    /// Checks a PIN's length before it is hashed.
    public static func checkFormat(_ pin: String) throws(GameRuleViolation) {
        guard pin.count >= minLength else { throw .pinTooShort }
        guard pin.count <= maxLength else { throw .pinTooLong }
    }

    /// Throws ``GameRuleViolation/lockedOut(until:)`` while a lockout is running.
    public func checkNotLocked(_ state: PINState, at now: Date) throws(GameRuleViolation) {
        if let until = state.lockedUntil, now < until { throw .lockedOut(until: until) }
    }

    /// The state after a wrong PIN: one more failure, and a lockout when they reach the limit.
    /// A lockout that has run out starts the count again.
    public func afterFailure(_ state: PINState, at now: Date) -> PINState {
        var failures = state.failures
        if let until = state.lockedUntil, now >= until { failures = 0 }
        failures += 1
        if failures >= maxFailures {
            return PINState(failures: failures, lockedUntil: now.addingTimeInterval(lockout))
        }
        return PINState(failures: failures, lockedUntil: nil)
    }

    /// Tries left before the next lockout.
    public func remainingTries(_ state: PINState) -> Int {
        max(0, maxFailures - state.failures)
    }
}

/// A player's record of wrong PINs: how many in a row, and a lockout if one is running.
public struct PINState: Sendable, Equatable, Codable {
    public var failures: Int
    public var lockedUntil: Date?

    public init(failures: Int = 0, lockedUntil: Date? = nil) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }
}
