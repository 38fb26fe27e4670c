import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr ledger load` (hidden): records finds into the data directory's ledger and prints
/// each find's id the moment it is acknowledged. The crash test kills it with SIGKILL and then
/// checks that every printed find is in the ledger.
struct LedgerLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Write finds and print each acknowledged one (for crash tests).",
        shouldDisplay: false
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Concurrent tasks, one player each.")
    var tasks = 8

    @Option(help: "Finds per task.")
    var finds = 100_000

    func run() async throws {
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: false)
        let hunt = SyntheticHunt.make(caches: finds)
        let out = FileHandle.standardOutput
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    let player = try await store.join(hunt: hunt.id, name: "load \(getpid()) \(t)", pin: "0000",
                                                      team: nil, at: Date()).id
                    for cache in hunt.caches {
                        let claim = ClaimRecord(player: player, hunt: hunt.id, cache: cache.id, time: Date(),
                                                location: cache.coordinate, method: .camera, verdict: .claimable)
                        if case .found(let find, _, _) = try await store.record(claim, in: hunt) {
                            out.write(Data("ack \(find.id)\n".utf8))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
