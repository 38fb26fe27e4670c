import Foundation
import GeoQR
import Ledger

extension Game {
    /// The teams' standings: each team's points, finds and players, from the players'
    /// (``TeamStanding/rank(_:)``). Players without a team are in no row.
    ///
    /// ```swift
    /// for row in try await game.teamStandings() { print(row.team, row.points) }   // Foxes 45
    /// ```
    public func teamStandings() async throws -> [TeamStanding] {
        TeamStanding.rank(try await store.leaderboard(hunt: huntID))
    }
}

/// A team's line on the leaderboard: the sums of its players' points and finds, and its rank.
public struct TeamStanding: Sendable, Equatable, Codable, LeaderboardLine {
    /// Its place, first place 1: teams equal in points and finds share one (``Results/ranks(_:)``).
    public var rank: Int
    public var team: String
    public var points: Int
    public var finds: Int
    /// How many players joined for the team.
    public var players: Int

    public init(rank: Int = 0, team: String, points: Int, finds: Int, players: Int) {
        self.rank = rank; self.team = team; self.points = points; self.finds = finds; self.players = players
    }

    /// Teams by points, then finds, then name, summed from the players' standings, each
    /// ranked as players are (teams level share a place: 1, 2, 2, 4). Only teams that have a
    /// player appear; a hunt's listed team nobody joined is left out. Team names ignore case,
    /// as player names do (a hunt without a list may get "Red" and "red").
    ///
    /// ```swift
    /// TeamStanding.rank(try await store.leaderboard(hunt: "DEMO"))
    /// ```
    public static func rank(_ standings: [Standing]) -> [TeamStanding] {
        var teams: [String: TeamStanding] = [:]
        for s in standings {
            guard let team = s.team else { continue }
            teams[PlayerName.key(team), default: TeamStanding(team: team, points: 0, finds: 0, players: 0)].add(s)
        }
        var sorted = teams.values.sorted {
            ($1.points, $1.finds, $0.team) < ($0.points, $0.finds, $1.team)
        }
        for (i, rank) in Results.ranks(sorted).enumerated() { sorted[i].rank = rank }
        return sorted
    }

    private mutating func add(_ s: Standing) {
        points += s.points
        finds += s.finds
        players += 1
    }
}

/// Players grouped by team with each group's total, as the control room lists them: teams by
/// name, case ignored as ``TeamStanding/rank(_:)`` counts them (the first player's spelling
/// names the group), then the players with no team; in each group the players in joining order.
///
/// ```swift
/// TeamGroup.group(players, standings: board)   // [Foxes: 45 points, P1 P4; Owls: 30, P2; no team: 10, P3]
/// ```
public struct TeamGroup: Sendable, Equatable, Codable {
    /// The team's name; nil for the players with no team.
    public var team: String?
    /// The sum of the players' points now.
    public var points: Int
    /// Player ids.
    public var players: [String]

    public static func group(_ players: [Player], standings: [Standing]) -> [TeamGroup] {
        let points = Dictionary(standings.map { ($0.player, $0.points) }, uniquingKeysWith: { a, _ in a })
        var groups: [String?: TeamGroup] = [:]
        for player in players {
            let key = player.team.map(PlayerName.key)
            groups[key, default: TeamGroup(team: player.team, points: 0, players: [])].players.append(player.id)
            groups[key]!.points += points[player.id] ?? 0
        }
        return groups.sorted { a, b in
            switch (a.key, b.key) {
            case (nil, _): false
            case (_, nil): true
            case (let x?, let y?): x < y
            }
        }.map(\.value)
    }
}
