import ArgumentParser

@main
struct GeoQRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geoqr",
        abstract: "QR geocaching: print cache codes, check them, and run a hunt.",
        discussion: """
        A hunt is a JSON file in caches/ (see caches/hunt.schema.json). Name it by its file name \
        (demo for caches/demo.json) or by its path. Secrets that sign the codes live in the data \
        directory (--data, GEOQR_DATA, or ~/.local/share/geoqr) and never in caches/.

        Start with:  geoqr print demo -o demo-sheet.pdf
        """,
        // The one place the version is written: `geoqr --version` prints it, and scripts/package
        // reads it from this line for the .deb's version.
        version: "0.9.0",
        subcommands: [PrintCommand.self, CodeCommand.self, VerifyCommand.self, CachesCommand.self,
                      DecodeCommand.self, ScanCommand.self, WatchCommand.self, ImportCommand.self, ExportCommand.self,
                      LedgerCommand.self, ServeCommand.self,
                      PlayerCommand.self, ClaimCommand.self, CollectionCommand.self, LeaderboardCommand.self,
                      HintCommand.self, ReportCommand.self, TradeCommand.self, TrackableCommand.self,
                      GameMasterCommand.self, ResultsCommand.self],
        defaultSubcommand: nil
    )

    /// ArgumentParser's own entry point, except that a ``CommandFailure`` is printed as one
    /// `geoqr:` line with its exit code, and usage errors of the commands in `UsageStatus` exit 2.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            failure.exit()
        } catch {
            UsageStatus.exitIfUsageError(error)
            exit(withError: error)
        }
    }
}
