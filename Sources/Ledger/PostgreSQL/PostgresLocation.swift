import Foundation
import PostgresNIO

/// Where a PostgreSQL ledger lives, read from a `postgres://user:password@host:port/database`
/// URL (`postgresql://` too). `?sslmode=disable|prefer|require` chooses TLS (default: prefer,
/// as libpq does); `?host=/run/postgresql` reaches the server through its Unix socket folder.
/// The password never appears in ``description``, so the location can be printed in errors.
///
/// ```swift
/// let location = try PostgresLocation("postgres://geoqr:secret@127.0.0.1:5432/hunts")
/// print(location)   // postgres://geoqr@127.0.0.1:5432/hunts
/// ```
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    /// A folder holding the server's socket (`.s.PGSQL.<port>`), instead of TCP to `host`.
    public var socketFolder: String?
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// True for text that names a PostgreSQL store rather than a file or folder.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws(PostgresStoreError) {
        guard Self.isURL(text), let url = URLComponents(string: text) else {
            throw .badURL("\(Self.redacted(text)) is not a postgres://user:password@host:port/database URL")
        }
        guard let user = url.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .badURL("\(Self.redacted(text)) names no user (postgres://USER:password@host/database)")
        }
        let database = String(url.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw .badURL("\(Self.redacted(text)) names no database (postgres://user@host/DATABASE)")
        }
        var socketFolder: String?, tls = TLSMode.prefer
        for item in url.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw .badURL("\(Self.redacted(text)): sslmode is disable, prefer or require, not \(item.value ?? "empty")")
                }
                tls = mode
            case "host" where item.value?.hasPrefix("/") == true:
                socketFolder = item.value
            default:
                throw .badURL("\(Self.redacted(text)): unknown parameter \(item.name) (sslmode and host=/socket/folder are known)")
            }
        }
        // An IPv6 address comes bracketed, as URLs write it: `postgres://geoqr@[::1]/hunts`.
        let host = (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty || socketFolder != nil else {
            throw .badURL("\(Self.redacted(text)) names no host (postgres://user@HOST:5432/database)")
        }
        self.host = host.isEmpty ? "localhost" : host
        self.port = url.port ?? 5432
        self.socketFolder = socketFolder
        self.user = user
        self.password = url.percentEncodedPassword?.removingPercentEncoding
        self.database = database
        self.tls = tls
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let place = socketFolder.map { "@/\(database)?host=\($0)" } ?? "@\(shownHost):\(port)/\(database)"
        return "postgres://\(user)\(place)"
    }

    /// `text` with anything between `://user:` and `@` hidden.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
              let colon = text[scheme.upperBound..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }

    /// The settings for postgres-nio's pool.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user,
                                  password: password, database: database)
        } else {
            let context = TLSConfiguration.makeClientConfiguration()
            let mode: PostgresClient.Configuration.TLS = switch tls {
            case .disable: .disable
            case .prefer: .prefer(context)
            case .require: .require(context)
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

extension PostgresLocation {
    /// The settings for one connection of its own (the store's first, which checks the schema).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user,
                                  password: password, database: database)
        } else {
            let mode: PostgresConnection.Configuration.TLS = switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

/// Why a PostgreSQL ledger could not be opened or used: one line a game master can act on.
public enum PostgresStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `--store` text is not a usable URL.
    case badURL(String)
    /// No server answered at the address.
    case unreachable(String)
    /// The server refused the user, the password or the database.
    case refused(String)
    /// The database holds a ledger of another schema version.
    case schema(String)
    /// The database holds no ledger yet, where one was expected.
    case noLedger(String)
    /// Anything else the server or the connection reported.
    case storage(String)

    public var description: String {
        switch self {
        case .badURL(let why): "bad store URL: \(why)"
        case .unreachable(let why), .refused(let why), .schema(let why), .storage(let why): why
        case .noLedger(let location): "\(location): no ledger here yet (copy one in with `geoqr ledger copy --to \(location)`, or start a hunt on it)"
        }
    }
}
