import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr gm adjust`.
struct GMAdjustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Give a player points, or take some away.",
        discussion: """
        Give the points after the player, negative to take some away, or as --points.

        Examples:
          geoqr gm adjust Ada 5 --hunt demo --reason "found the lost trackable"
          geoqr gm adjust Ada -10 --hunt demo --reason "moved a cache"
          geoqr gm adjust Ada --points -10 --hunt demo --reason "moved a cache"
        """
    )

    @Argument(help: ArgumentHelp("The player's name or id.", valueName: "PLAYER"))
    var player: String

    // Collects what the parser does not recognise, so that a bare -10 (which it reads as an
    // option) arrives here too; validate() accepts exactly one whole number.
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("Points to add; negative to take away (-10 works here too).", valueName: "POINTS"))
    var pointsArguments: [String] = []

    /// POINTS as given, without the `--` that used to be needed before a negative number
    /// (and that this parsing strategy hands over as it is).
    var givenPoints: [String] { pointsArguments.filter { $0 != "--" } }

    /// POINTS, read; validate() has made sure it is one whole number when given.
    var positionalPoints: Int? { givenPoints.first.flatMap { Int($0) } }

    @Option(name: .customLong("points"), parsing: .unconditional,
            help: ArgumentHelp("Points to add; negative to take away (--points -5).", valueName: "N"))
    var optionPoints: Int?

    /// The points, from either place; validate() has made sure there is exactly one.
    var points: Int { optionPoints ?? positionalPoints ?? 0 }

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reasonOption: ReasonOption

    @Flag(help: "Print the player's standing afterwards as JSON.")
    var json = false

    func validate() throws {
        if let bad = givenPoints.first(where: { Int($0) == nil }) ?? (givenPoints.count > 1 ? givenPoints[1] : nil) {
            throw ValidationError("POINTS: \(bad) is not one whole number (give the points once, e.g. 5 or -5)")
        }
        switch (positionalPoints, optionPoints) {
        case (nil, nil): throw ValidationError("give the points: geoqr gm adjust PLAYER 5, PLAYER -5 or --points -5")
        case (.some, .some): throw ValidationError("give the points once: as POINTS or as --points, not both")
        default: break
        }
        guard points != 0 else { throw ValidationError("POINTS: give a number other than 0") }
    }

    func run() async throws {
        let game = try await gameOptions.game()
        let standing = try await orFail { try await game.adjustPoints(of: player, by: points, reason: reasonOption.reason) }.value
        if json { return try printJSON(standing) }
        print("\(standing.name): \(points > 0 ? "+" : "")\(points) points, now \(standing.points)")
    }
}
