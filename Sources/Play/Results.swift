import Foundation
import GeoQR
import Ledger

extension Game {
    /// The hunt's results as the game master hands them out: the standings with ranks, the
    /// teams, and every find (voided ones too, with the reason), oldest first. The same for
    /// `geoqr results` and the control room's downloads.
    ///
    /// ```swift
    /// let results = try await game.results()
    /// print(results.csv(.standings))
    /// ```
    public func results() async throws -> Results {
        let standings = try await store.leaderboard(hunt: huntID)
        let players = Dictionary(try await store.players(hunt: huntID).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let points = try await store.pointsByFind(hunt: huntID)
        let finds = try await store.finds(hunt: huntID, player: nil).map { find in
            Results.FindLine(find, player: players[find.player], cacheName: hunt.cache(id: find.cache)?.name ?? find.cache,
                         points: points[find.id] ?? 0)
        }
        return Results(hunt: huntID, standings: Results.ranked(standings), teams: TeamStanding.rank(standings), finds: finds)
    }
}

/// A line of a leaderboard in its order, a player's or a team's: ranked by its points, then
/// its finds (``Results/ranks(_:)``).
public protocol LeaderboardLine {
    var points: Int { get }
    var finds: Int { get }
}

extension Standing: LeaderboardLine {}

/// A hunt's results: the standings, the teams' standings and every find.
public struct Results: Sendable, Equatable, Codable {
    public var hunt: String
    public var standings: [Placing]
    public var teams: [TeamStanding]
    public var finds: [FindLine]

    /// A player's line, with a rank: players equal in points and finds share one, and the next
    /// rank skips as many (1, 2, 2, 4).
    public struct Placing: Sendable, Equatable, Codable {
        public var rank: Int
        public var player: String
        public var name: String
        public var team: String?
        public var points: Int
        public var finds: Int
    }

    /// A find with the names a spreadsheet needs beside the ids.
    public struct FindLine: Sendable, Equatable, Codable {
        public var id: String
        /// When the code was scanned, ISO 8601 in UTC.
        public var time: String
        public var player: String
        public var playerName: String
        public var team: String?
        public var cache: String
        public var cacheName: String
        public var method: ClaimMethod
        /// What the find counts for now: 0 once voided.
        public var points: Int
        public var firstToFind: Bool
        public var voided: Bool
        public var voidReason: String?

        init(_ find: Find, player: Player?, cacheName: String, points: Int) {
            id = find.id
            time = Results.timestamp(find.time)
            self.player = find.player
            playerName = player?.name ?? find.player
            team = player?.team
            cache = find.cache
            self.cacheName = cacheName
            method = find.method
            self.points = points
            firstToFind = find.firstToFind
            voided = find.voidReason != nil
            voidReason = find.voidReason
        }
    }

    /// The tables a CSV can hold, one at a time.
    public enum Table: String, Sendable, CaseIterable {
        case standings, teams, finds
    }

    /// One table as CSV (``GeoQR/CSVWriter``), with a header row whose names are the JSON's.
    ///
    /// ```swift
    /// results.csv(.finds)   // "id,time,player,playerName,team,cache,…\r\nF4,2026-11-28T09:12:03Z,P1,Ada,…"
    /// ```
    public func csv(_ table: Table) -> String {
        switch table {
        case .standings:
            var csv = CSVWriter(header: ["rank", "player", "name", "team", "points", "finds"])
            for s in standings { csv.row(["\(s.rank)", s.player, s.name, s.team ?? "", "\(s.points)", "\(s.finds)"]) }
            return csv.text
        case .teams:
            var csv = CSVWriter(header: ["rank", "team", "points", "finds", "players"])
            for t in teams { csv.row(["\(t.rank)", t.team, "\(t.points)", "\(t.finds)", "\(t.players)"]) }
            return csv.text
        case .finds:
            var csv = CSVWriter(header: ["id", "time", "player", "playerName", "team", "cache", "cacheName", "method",
                                         "points", "firstToFind", "voided", "voidReason"])
            for f in finds {
                csv.row([f.id, f.time, f.player, f.playerName, f.team ?? "", f.cache, f.cacheName, f.method.rawValue,
                         "\(f.points)", "\(f.firstToFind)", "\(f.voided)", f.voidReason ?? ""])
            }
            return csv.text
        }
    }

    /// Ranks the leaderboard's order: equal points and finds share a rank. Every list of players
    /// a page numbers comes ranked from here (the API's leaderboard, the streams' top, the
    /// control room's standings, the results), so no page works a place out for itself.
    public static func ranked(_ standings: [Standing]) -> [Placing] {
        zip(standings, ranks(standings)).map { s, rank in
            Placing(rank: rank, player: s.player, name: s.name, team: s.team, points: s.points, finds: s.finds)
        }
    }

    /// Each line's rank in the leaderboard's order, first place 1: players (or teams) equal in
    /// points and finds share a rank, and the next after them is ranked by how many come before
    /// it (1, 2, 2, 4). The results, the big screen and each phone's own rank all use it.
    public static func ranks(_ standings: [some LeaderboardLine]) -> [Int] {
        var ranks: [Int] = []
        ranks.reserveCapacity(standings.count)
        for (i, s) in standings.enumerated() {
            if i > 0, standings[i - 1].points == s.points, standings[i - 1].finds == s.finds {
                ranks.append(ranks[i - 1])
            } else {
                ranks.append(i + 1)
            }
        }
        return ranks
    }

    /// ISO 8601 in UTC, to the second (a find's time is kept to the millisecond; a sheet does
    /// not need it).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
