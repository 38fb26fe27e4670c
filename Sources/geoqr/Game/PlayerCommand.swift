import ArgumentParser

/// `geoqr player`: the people who play a hunt.
struct PlayerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "Add players to a hunt.",
        subcommands: [PlayerAddCommand.self]
    )
}
