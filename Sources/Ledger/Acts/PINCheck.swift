import Foundation
import GeoQR

/// What a sign-in writes and answers once bcrypt has said whether the PIN was right, whichever
/// store records it: a right PIN clears earlier failures (one event, only if there were any); a
/// wrong one counts towards a lockout (``GeoQR/PINPolicy``).
///
/// ```swift
/// let check = PINCheck.decide(correct: false, player: "P3", state: state, policy: policy, at: now)
/// if let body = check.event { append(.pinChecked, body) }
/// try check.refusal.map { throw $0 }
/// ```
struct PINCheck: Sendable {
    /// The `pin-checked` body to append, if any.
    var event: PINChecked?
    /// Why the sign-in fails, once the event is written; nil when it succeeds.
    var refusal: GameRuleViolation?

    static func decide(correct: Bool, player: String, state: PINState, policy: PINPolicy, at time: Date) -> PINCheck {
        if correct {
            return PINCheck(event: state.failures > 0 ? PINChecked(player: player, success: true, state: PINState()) : nil,
                            refusal: nil)
        }
        let after = policy.afterFailure(state, at: time)
        let refusal: GameRuleViolation = after.lockedUntil.map { .lockedOut(until: $0) }
            ?? .wrongPIN(remainingTries: policy.remainingTries(after))
        return PINCheck(event: PINChecked(player: player, success: false, state: after), refusal: refusal)
    }
}
