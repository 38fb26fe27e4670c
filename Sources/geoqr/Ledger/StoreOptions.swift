import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// Where a command finds the ledger: `--store`, else `$GEOQR_STORE`, else `ledger.sqlite` in the
/// data directory. The hunt's secrets, the admin token and the TLS key stay in the data
/// directory whichever store holds the ledger.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        The ledger: postgres://USER:PASSWORD@HOST:PORT/DATABASE for a PostgreSQL server (several geoqr \
        servers can share it), or a folder or .sqlite file (default: $GEOQR_STORE, else ledger.sqlite \
        in the data directory).
        """, valueName: "URL|PATH"))
    var store: String?

    /// What `--store` or `$GEOQR_STORE` says, if either is set.
    var named: String? {
        store ?? ProcessInfo.processInfo.environment["GEOQR_STORE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Opens the ledger. With `mustExist`, a missing one is an error rather than a new empty
    /// ledger. Every failure (a bad URL, a server that does not answer or refuses, a ledger of
    /// another schema version) is one line on standard error, before anything is written.
    func ledger(data: DataOptions, mustExist: Bool, pinCost: UInt8 = 10,
                pinPolicy: PINPolicy = PINPolicy()) async throws -> any GameStore {
        let place = try LedgerPlace(named ?? data.directory().path)
        return try await place.open(mustExist: mustExist, pinCost: pinCost, pinPolicy: pinPolicy)
    }
}

/// A ledger's place as a user names it: a PostgreSQL URL, a `.sqlite` file, or a folder
/// holding `ledger.sqlite`.
enum LedgerPlace: CustomStringConvertible {
    case postgres(PostgresLocation)
    case sqlite(path: String)

    init(_ text: String) throws {
        if PostgresLocation.isURL(text) {
            do { self = .postgres(try PostgresLocation(text)) } catch { throw CommandFailure(error.description) }
        } else if text.contains("://") {
            throw CommandFailure("bad store URL: \(text.prefix { $0 != ":" }):// is not a store; use postgres://user:password@host:port/database, or a folder")
        } else if text.hasSuffix(".sqlite") {
            self = .sqlite(path: text)
        } else {
            self = .sqlite(path: text + "/" + SQLiteGameStore.fileName)
        }
    }

    var description: String {
        switch self {
        case .postgres(let location): location.description
        case .sqlite(let path): path
        }
    }

    func open(mustExist: Bool, pinCost: UInt8 = 10, pinPolicy: PINPolicy = PINPolicy()) async throws -> any GameStore {
        switch self {
        case .postgres(let location):
            do {
                return try await PostgresGameStore.open(location, configuration: .init(pinCost: pinCost, pinPolicy: pinPolicy),
                                                        create: !mustExist)
            } catch { throw CommandFailure("\(error)") }
        case .sqlite(let path):
            if mustExist, access(path, F_OK) != 0 {
                throw CommandFailure("\(path): no ledger here yet (pass --data DIR or --store, or set GEOQR_DATA or GEOQR_STORE)")
            }
            let folder = (path as NSString).deletingLastPathComponent
            do {
                if !folder.isEmpty {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])
                }
                return try SQLiteGameStore(path: path, configuration: .init(pinCost: pinCost, pinPolicy: pinPolicy))
            } catch { throw CommandFailure("\(error)") }
        }
    }
}
