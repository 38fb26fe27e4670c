import GeoQR

/// How a trade that cannot be accepted is closed, whichever store records it: an expired one
/// as expired; one whose items moved or would give a second card of a cache as failed, with
/// the reason, since it can never succeed now. Other refusals (not the recipient, not open)
/// close nothing.
///
/// ```swift
/// if let (state, reason) = TradeAcceptFailure.closing(for: error) { close(trade, as: state, reason) }
/// ```
enum TradeAcceptFailure {
    static func closing(for error: GameRuleViolation) -> (state: TradeState, reason: String?)? {
        switch error {
        case .tradeExpired: (.expired, nil)
        case .tradeItemGone, .tradeDuplicateCard: (.failed, error.description)
        default: nil
        }
    }
}
