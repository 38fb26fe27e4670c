import Foundation
import GeoQR
import Ledger

extension Game {
    /// A player joins the hunt with a name, a PIN and perhaps a team (``GeoQR/TeamName``; one
    /// of the hunt's teams when its file lists them). The name's rules are
    /// ``GeoQR/PlayerName``'s; the PIN is kept as a bcrypt hash, outside the ledger.
    ///
    /// ```swift
    /// let ada = try await game.join(name: "Ada", pin: "4321", team: "Red").value   // P1
    /// ```
    public func join(name: String, pin: String, team: String?) async throws -> Outcome<Player> {
        let team = try TeamName.check(team, listed: hunt.teams)
        let player = try await store.join(hunt: huntID, name: name, pin: pin, team: team, at: clock())
        return Outcome(player, effects: [.playerSeen(player), .standingsChanged])
    }

    /// A player proves who they are with their PIN; wrong PINs count towards a lockout
    /// (``GeoQR/PINPolicy``). With the `address` the guess came from (the server gives it),
    /// five wrong PINs lock that address out of that name (``GeoQR/PINPolicy/perAddress``)
    /// before the ledger's slower count locks the player: a rival guessing the leader's PIN
    /// locks out only themself.
    ///
    /// ```swift
    /// let ada = try await game.signIn(name: "ada", pin: "4321", from: "203.0.113.9").value
    /// ```
    public func signIn(name: String, pin: String, from address: String? = nil) async throws -> Outcome<Player> {
        let now = clock()
        let guess = address.map { Guesses.Subject.pin(address: $0, name: PlayerName.key(name)) }
        if let guess { try await guesses.check(guess, at: now) }
        do {
            let player = try await store.signIn(hunt: huntID, name: name, pin: pin, at: now)
            if let guess { try await guesses.succeeded(guess) }
            return Outcome(player, effects: [.playerSeen(player)])
        } catch GameRuleViolation.wrongPIN(let left) {
            guard let guess else { throw GameRuleViolation.wrongPIN(remainingTries: left) }
            let after = try await guesses.failed(guess, at: now)
            if let until = after.lockedUntil { throw GameRuleViolation.lockedOut(until: until) }
            throw GameRuleViolation.wrongPIN(remainingTries: min(left, guess.policy.remainingTries(after)))
        }
    }

    /// The player with this name (any case) or id, or ``GeoQR/GameRuleViolation/unknownPlayer(_:)``.
    ///
    /// ```swift
    /// try await game.player(named: "ada").id   // "P1"
    /// ```
    public func player(named name: String) async throws -> Player {
        guard let player = try await store.player(hunt: huntID, named: name) else { throw GameRuleViolation.unknownPlayer(name) }
        return player
    }

    /// A player's line on the leaderboard (zero points before any find).
    ///
    /// ```swift
    /// try await game.standing(of: ada).points   // 15
    /// ```
    public func standing(of player: Player) async throws -> Standing {
        try await store.leaderboard(hunt: huntID).first { $0.player == player.id }
            ?? Standing(player: player.id, name: player.name, team: player.team, points: 0, finds: 0)
    }

    /// What another player holds, to ask for in a trade: card ids and cache names, never the
    /// cards' messages (only finding the cache reveals those), and the trackables they carry.
    ///
    /// ```swift
    /// let items = try await game.items(of: "Bob")   // [Item(id: "C7", kind: .card, name: "Salt pan view")]
    /// ```
    public func items(of name: String) async throws -> [Item] {
        let player = try await player(named: name)
        let cards = try await store.collection(hunt: huntID, player: player.id)
        let carried = try await store.trackables(hunt: huntID).filter { $0.holder == player.id }
        return cards.map { Item(id: $0.id, kind: .card, name: $0.cacheName) }
            + carried.map { Item(id: $0.id, kind: .trackable, name: $0.name) }
    }
}

/// An item as another player sees it.
public struct Item: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case card, trackable }
    public var id: String
    public var kind: Kind
    public var name: String
}
