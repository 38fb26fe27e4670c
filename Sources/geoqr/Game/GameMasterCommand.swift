import ArgumentParser

/// `geoqr gm`: the game master's acts, each one an event in the ledger.
struct GameMasterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gm",
        abstract: "Game-master acts: void finds, adjust points, disable caches, rotate secrets and the admin link, resolve reports, review flags, reset PINs, judge photo tasks, drop positions after a hunt, forget a player.",
        discussion: """
        Whoever holds the data directory is the game master. Every act is recorded in the \
        ledger with its reason, and shows in geoqr ledger show.
        """,
        subcommands: [GMVoidCommand.self, GMAdjustCommand.self, GMDisableCommand.self,
                      GMRotateSecretCommand.self, GMResolveCommand.self, GMFlagsCommand.self, GMResetPINCommand.self,
                      GMRotateAdminTokenCommand.self, GMStartCourseCommand.self, GMDisqualifyCommand.self,
                      GMPhotosCommand.self, GMApprovePhotoCommand.self, GMRejectPhotoCommand.self,
                      GMDropPositionsCommand.self, GMForgetPlayerCommand.self]
    )
}

/// The reason every game-master act carries.
struct ReasonOption: ParsableArguments {
    @Option(help: "Why, for whoever reads the ledger later (at most 200 characters).")
    var reason: String

    func validate() throws {
        guard !reason.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--reason: say why") }
    }
}
