import Foundation
import Ledger
import PostgresNIO
import Testing

/// `--store` and `geoqr ledger copy` through the built binary (issue 15 §1, §3): a ledger moved
/// to PostgreSQL and back verifies to the same head hash; a store that cannot work is one line
/// on standard error, a non-zero exit, and nothing written.
@Suite struct StoreCommandTests {
    static let postgresURL = ProcessInfo.processInfo.environment["GEOQR_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static let withPostgres = postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil

    /// A new empty database on the test server, as a URL.
    static func database() async throws -> String {
        let url = try #require(postgresURL, "GEOQR_TEST_POSTGRES is not set: run through scripts/with-postgres")
        let server = try PostgresLocation(url)
        let name = "geoqr_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await sql("CREATE DATABASE \(name)", on: server)
        return url.replacingOccurrences(of: "/\(server.database)?", with: "/\(name)?")
    }

    /// Runs one statement, as the database's own shell would.
    static func sql(_ statement: String, on location: PostgresLocation) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(host: location.host, port: location.port, username: location.user,
                                 password: location.password, database: location.database, tls: .disable),
            id: 1, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test"))
    }

    static func head(_ result: GeoQRProcess.Result) throws -> String {
        let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        return try #require(object?["headHash"] as? String, "no headHash in \(result.stdout) \(result.stderr)")
    }

    /// The one-line failure every bad store gives, with nothing written to the data directory.
    static func expectOneLineFailure(_ r: GeoQRProcess.Result, saying words: String, _ geoqr: GeoQRProcess,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status != 0, sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("geoqr: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)",
                sourceLocation: sourceLocation)
        #expect(r.stderr.contains(words), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: geoqr.dataDirectory.appendingPathComponent("ledger.sqlite").path),
                "nothing written", sourceLocation: sourceLocation)
    }

    @Test func storesThatCannotWorkAreOneLineAndWriteNothing() throws {
        let geoqr = try GeoQRProcess()
        for (store, words) in [("mysql://ada@127.0.0.1/hunts", "bad store URL: mysql:// is not a store"),
                               ("postgres://ada@127.0.0.1", "names no database"),
                               ("postgres://ada:s3cret@127.0.0.1:1/hunts?sslmode=disable",
                                "postgres://ada@127.0.0.1:1/hunts: no PostgreSQL server answers there")] {
            for command in [["player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--store", store],
                            ["ledger", "verify", "--store", store]] {
                let r = try geoqr.run(arguments: command)
                Self.expectOneLineFailure(r, saying: words, geoqr)
                #expect(!r.stderr.contains("s3cret"))
            }
            // GEOQR_STORE says the same as --store.
            Self.expectOneLineFailure(try geoqr.run("ledger", "export", environment: ["GEOQR_STORE": store]), saying: words, geoqr)
        }
    }

    @Test(.enabled(if: withPostgres)) func wrongCredentialsAndAnotherSchemaVersionAreOneLine() async throws {
        let geoqr = try GeoQRProcess()
        let url = try await Self.database()
        let wrong = url.replacingOccurrences(of: #"geoqr:[^@]*@"#, with: "geoqr:wrong@", options: .regularExpression)
        Self.expectOneLineFailure(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--store", wrong),
                                  saying: "refused the user or password", geoqr)
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--store", url).status == 0)
        try await Self.sql("INSERT INTO geoqr_migrations (position, name) VALUES (99, 'v9: from a later geoqr')",
                           on: try PostgresLocation(url))
        Self.expectOneLineFailure(try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "4321", "--store", url),
                                  saying: "at another schema version", geoqr)
        try await Self.sql("DELETE FROM geoqr_migrations WHERE position = 99", on: try PostgresLocation(url))
        let verified = try geoqr.run("ledger", "verify", "--store", url, "--json")
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect((try JSONSerialization.jsonObject(with: verified.stdoutData) as? [String: Any])?["events"] as? Int == 1,
                "Bob was not written")
    }

    @Test(.enabled(if: withPostgres)) func aLedgerCopiedToPostgreSQLAndBackVerifiesToTheSameHead() async throws {
        let geoqr = try GeoQRProcess()
        for name in ["Ada", "Bob"] {
            #expect(try geoqr.run("player", "add", name, "--hunt", "demo", "--pin", "4321").status == 0)
        }
        #expect(try geoqr.run("gm", "adjust", "Ada", "5", "--hunt", "demo", "--reason", "set up the caches").status == 0)
        let original = try Self.head(try geoqr.run("ledger", "verify", "--json"))

        let url = try await Self.database()
        let copy = try geoqr.run("ledger", "copy", "--to", url, "--json")
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(try Self.head(copy) == original)
        #expect(!copy.stdout.contains(try #require(PostgresLocation(url).password)), "the password is not printed")
        let there = try geoqr.run("ledger", "verify", "--store", url, "--json")
        #expect(there.status == 0, "\(there.stderr)")
        #expect(try Self.head(there) == original)

        // Play goes on there (GEOQR_STORE names it), then the ledger comes back to a folder.
        #expect(try geoqr.run("player", "add", "Carol", "--hunt", "demo", "--pin", "4321", environment: ["GEOQR_STORE": url]).status == 0)
        let moved = try Self.head(try geoqr.run("ledger", "verify", "--json", environment: ["GEOQR_STORE": url]))
        #expect(moved != original)
        let archive = geoqr.base.appendingPathComponent("archive").path
        let back = try geoqr.run("ledger", "copy", "--store", url, "--to", archive)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.hasPrefix("copied 4 events to \(archive)/ledger.sqlite: 4 events, head \(moved)"), "\(back.stdout)")
        #expect(try Self.head(try geoqr.run("ledger", "verify", "--store", archive, "--json")) == moved)

        // The data directory's ledger is another ledger now: copying it there is refused.
        let refused = try geoqr.run("ledger", "copy", "--to", archive)
        #expect(refused.status == 1 && refused.stderr.contains("the target holds another ledger"), "\(refused.stderr)")
        #expect(try Self.head(try geoqr.run("ledger", "verify", "--store", archive, "--json")) == moved)
    }

    @Test func copyHelpIsWrittenForAGameMaster() throws {
        let help = try GeoQRProcess().run("ledger", "copy", "--help")
        #expect(help.status == 0)
        for words in ["--to <URL|PATH>", "postgres://", "verify", "head", "--json", "--store"] {
            #expect(help.stdout.contains(words), "\(words)")
        }
    }
}
