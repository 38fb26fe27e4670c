import GRDB

/// Why the ledger's storage could not do what was asked: faults of the file or the machine,
/// not of the game (those are ``GeoQR/GameRuleViolation``).
///
/// ```swift
/// do { _ = try SQLiteGameStore(path: "/read-only/ledger.sqlite") }
/// catch let error as LedgerError { print(error) }   // one line a user can act on
/// ```
public enum LedgerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process holds the database for longer than the busy timeout.
    case locked(String)
    /// The file or its folder cannot be written.
    case readOnly(String)
    /// The disk is full.
    case full(String)
    /// The file is not a ledger, or its contents cannot be read back.
    case corrupt(String)
    /// Any other SQLite failure, with SQLite's message.
    case storage(String)

    public var description: String {
        switch self {
        case .locked(let p): "\(p): the ledger is locked by another process; try again, or stop the other geoqr"
        case .readOnly(let p): "\(p): the ledger cannot be written (read-only file or folder); check permissions or pass --data DIR"
        case .full(let p): "\(p): the disk is full; free space and try again (nothing was half-written)"
        case .corrupt(let why): "the ledger is damaged: \(why); restore it from a backup, or move it aside to start a new one"
        case .storage(let why): "ledger storage failed: \(why)"
        }
    }

    /// Translates SQLite's error codes into the cases a user can act on.
    static func from(_ error: any Error, path: String) -> any Error {
        guard let db = error as? DatabaseError else { return error }
        switch db.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return LedgerError.locked(path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return LedgerError.readOnly(path)
        case .SQLITE_FULL: return LedgerError.full(path)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return LedgerError.corrupt("\(path): \(db.message ?? "not a database")")
        default: return LedgerError.storage("\(path): \(db.message ?? "\(db.resultCode)")")
        }
    }
}
