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

    /// Sign-in attempts from one network (an IPv4 address, an IPv6 /64) for one player: 5,
    /// then that network waits 15 minutes for that player. The only count that applies where
    /// the player has signed in before (``trustLifetime``), so nobody elsewhere can lock a
    /// player out of their own phone's network.
    public static let perAddress = PINPolicy(maxFailures: 5, lockout: 15 * 60)
    /// Sign-in attempts from one network for players it never signed in, and names that are
    /// no player's, whichever names: 20, then an hour. Spraying names from one address is as
    /// slow as guessing one.
    public static let perNetwork = PINPolicy(maxFailures: 20, lockout: 60 * 60)
    /// Sign-in attempts for one player from every network it never signed in from, together:
    /// 10, then those networks wait 30 minutes for that player. This is the count that many
    /// addresses share: 20 guesses an hour at most, however many addresses guess. The player
    /// is never refused on a network they signed in from.
    public static let perName = PINPolicy(maxFailures: 10, lockout: 30 * 60)
    /// The ledger's own count on a server, which counts per network and name first: it never
    /// locks (a lock there would shut the player out from everywhere, the very thing a rival
    /// with four addresses could cause); it keeps the history of wrong PINs.
    public static let perPlayer = PINPolicy(maxFailures: .max, lockout: 0)
    /// Wrong typed codes from one player: 5, then 15 minutes without typing codes. A typed
    /// code's 40-bit MAC cannot be guessed at that pace. Only a find clears the count.
    public static let typedCodes = PINPolicy(maxFailures: 5, lockout: 15 * 60)
    /// How long a network stays trusted for a player after a right PIN from it.
    public static let trustLifetime: TimeInterval = 30 * 24 * 60 * 60

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
    /// A lockout that has run out starts the count again. A failure during a lockout is
    /// counted past the limit without lengthening it, so an attempt counted before it is
    /// judged (``admits(_:)``) knows whether it came in time.
    public func afterFailure(_ state: PINState, at now: Date) -> PINState {
        var failures = state.failures
        if let until = state.lockedUntil {
            if now < until { return PINState(failures: failures == .max ? failures : failures + 1, lockedUntil: until) }
            failures = 0
        }
        failures += 1
        if failures >= maxFailures {
            return PINState(failures: failures, lockedUntil: now.addingTimeInterval(lockout))
        }
        return PINState(failures: failures, lockedUntil: nil)
    }

    /// Whether an attempt counted in advance (the state after ``afterFailure(_:at:)``) was
    /// within the limit: counting first and judging after, in one transaction, lets no burst
    /// of simultaneous attempts through between a check and a count.
    public func admits(_ counted: PINState) -> Bool {
        counted.failures <= maxFailures
    }

    /// The state once an attempt counted in advance proved right: that attempt no longer counts.
    public func afterRefund(_ state: PINState) -> PINState {
        let failures = max(0, state.failures - 1)
        return PINState(failures: failures, lockedUntil: failures < maxFailures ? nil : state.lockedUntil)
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
