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
    ///
    /// A new name must not pass for a player already in the hunt: `Аda` (Cyrillic А) when Ada
    /// plays is refused with ``GeoQR/GameRuleViolation/nameConfusable(_:with:)``, by Unicode's
    /// skeletons (``NameSkeletons``). Names already in the ledger are kept as they are.
    public func join(name: String, pin: String, team: String?) async throws -> Outcome<Player> {
        let team = try TeamName.check(team, listed: hunt.teams)
        _ = try PlayerName.check(name, taken: [])   // a malformed name costs no read of the players
        let existing = try await knownNames.current(in: store, hunt: huntID)
        let name = try PlayerName.checkNew(name, among: existing, skeleton: NameSkeletons.skeleton)
        let player = try await store.join(hunt: huntID, name: name, pin: pin, team: team, at: clock())
        return Outcome(player, effects: [.playerSeen(player), .standingsChanged])
    }

    /// A player proves who they are with their PIN. With the `address` the guess came from
    /// (the server gives it), attempts are counted before bcrypt runs (``Guesses``):
    /// - from a network the player signed in from before (``Guesses/trusts(_:for:at:)``): 5,
    ///   then 15 minutes for that network and player (``GeoQR/PINPolicy/perAddress``), and
    ///   nothing else, so no guesser anywhere else can lock the player out of their own network;
    /// - from any other network: that count, and 20 for any names from that network an hour
    ///   (``GeoQR/PINPolicy/perNetwork``), and 10 for the player from all such networks
    ///   together, then 30 minutes (``GeoQR/PINPolicy/perName``): many addresses guess no
    ///   faster than one, and the player, on a network they used, is never refused.
    /// A right PIN gives its attempt back and trusts the network for the player
    /// (``GeoQR/PINPolicy/trustLifetime``). The ledger's own count never locks on a server
    /// (``GeoQR/PINPolicy/perPlayer``).
    ///
    /// ```swift
    /// let ada = try await game.signIn(name: "ada", pin: "4321", from: "203.0.113.9").value
    /// ```
    public func signIn(name: String, pin: String, from address: String? = nil) async throws -> Outcome<Player> {
        let now = clock()
        guard let address else {
            let player = try await store.signIn(hunt: huntID, name: name, pin: pin, at: now)
            return Outcome(player, effects: [.playerSeen(player)])
        }
        let network = Guesses.network(of: address)
        guard let named = try await store.player(hunt: huntID, named: name) else {
            // A name that is no player's costs the network as a wrong PIN would: spraying made-up
            // names is no free way to learn who plays.
            try await guesses.attempt(.pinsFrom(network: network), at: now)
            throw GameRuleViolation.unknownPlayer(name)
        }
        let trusted = try await guesses.trusts(network, for: named.id, at: now)
        let counted: [Guesses.Subject] = [.pin(address: network, name: named.id)]
            + (trusted ? [] : [.pinsFrom(network: network), .pinsFor(name: named.id)])
        for subject in counted { try await guesses.attempt(subject, at: now) }
        do {
            let player = try await store.signIn(hunt: huntID, name: name, pin: pin, at: now)
            for subject in counted { try await guesses.refund(subject) }
            try await guesses.trust(network, for: player.id, at: now)
            return Outcome(player, effects: [.playerSeen(player)])
        } catch GameRuleViolation.wrongPIN(let left) {
            var tries = left
            for subject in counted {
                if let until = try await guesses.lock(of: subject, at: now) { throw GameRuleViolation.lockedOut(until: until) }
                tries = min(tries, try await guesses.remainingTries(subject))
            }
            throw GameRuleViolation.wrongPIN(remainingTries: tries)
        }
    }

    /// Trusts the network a player joined from, as a right PIN from it would
    /// (``signIn(name:pin:from:)``): the phone that joined signs in again there without waiting
    /// on anyone else's guesses.
    public func trustNetwork(of address: String, for player: Player) async throws {
        try await guesses.trust(Guesses.network(of: address), for: player.id, at: clock())
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
