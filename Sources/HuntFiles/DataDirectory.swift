import Foundation
import GeoQR

/// Where GeoQR keeps what must not be shared: hunt secrets, the ledger (bcrypt hashes of
/// PINs), sessions, the admin token, TLS keys, report photos.
/// `--data DIR`, else `GEOQR_DATA`, else `$XDG_DATA_HOME/geoqr` (`~/.local/share/geoqr`).
/// The folder and its subfolders are mode 0700 and every file 0600, whatever was there
/// before (``makePrivate()``, run by `geoqr serve` at start).
///
/// ```swift
/// let data = try DataDirectory(path: nil)
/// let secret = try data.secret(forHunt: "DEMO")   // made on first use, then reused
/// ```
public struct DataDirectory: Sendable {
    public let path: String

    /// Where the hunt server keeps the photos sent with reports, one file per SHA-256.
    public var reportPhotoFolder: String { "\(path)/server/report-photos" }

    /// Where the hunt server keeps the photos sent for photo tasks, beside the reports'.
    public var taskPhotoFolder: String { "\(path)/server/task-photos" }

    public init(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(DataDirectoryError) {
        if let path, !path.isEmpty {
            self.path = path
        } else if let env = environment["GEOQR_DATA"], !env.isEmpty {
            self.path = env
        } else if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            self.path = xdg + "/geoqr"
        } else if let home = environment["HOME"], !home.isEmpty {
            self.path = home + "/.local/share/geoqr"
        } else {
            throw .noDefault
        }
    }

    /// What geoqr keeps at the top of a data folder. ``makePrivate()`` tightens these (and
    /// everything below the folders among them) and leaves anything else a user put there alone.
    public static let ownEntries: Set<String> = [
        "secrets", "server", "tls",
        "ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm", "ledger.sqlite-journal",
    ]

    /// Files this process makes from now on are readable by its user alone (umask 077), so
    /// what a library creates with 0644 (SQLite's files, a report photo) is 0600 in the data
    /// folder. Every geoqr command that writes the data folder calls this first.
    public static func restrictNewFiles() {
        umask(0o077)
    }

    /// Makes the data folder private whatever was there before: the folder and geoqr's
    /// subfolders 0700, geoqr's files 0600 (an older geoqr, a `cp -r`, or a 0022 umask can
    /// have left them readable by every local user: the ledger holds bcrypt hashes of 4-digit
    /// PINs, which take seconds to reverse). Makes the folder if it is missing. Symbolic links
    /// are not followed.
    ///
    /// ```swift
    /// let tightened = try data.makePrivate()
    /// if !tightened.isEmpty { print("geoqr: \(tightened)") }
    /// ```
    /// - returns: what it changed (empty when everything was private already).
    /// - throws: ``DataDirectoryError/unwritable(_:_:)`` when the folder cannot be made or changed.
    public func makePrivate() throws(DataDirectoryError) -> PrivacyRepair {
        try makeDirectory(path)
        var repair = PrivacyRepair(folder: path)
        try tighten(path, isFolder: true, into: &repair)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in entries.sorted() where Self.ownEntries.contains(name) {
            try tightenTree("\(path)/\(name)", into: &repair)
        }
        return repair
    }

    private func tightenTree(_ entry: String, into repair: inout PrivacyRepair) throws(DataDirectoryError) {
        var info = stat()
        guard lstat(entry, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            try tighten(entry, isFolder: true, into: &repair)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: entry)) ?? []).sorted() {
                try tightenTree("\(entry)/\(name)", into: &repair)
            }
        case S_IFREG:
            try tighten(entry, isFolder: false, into: &repair)
        default:
            return   // a symbolic link, socket or device: not geoqr's, not followed
        }
    }

    private func tighten(_ entry: String, isFolder: Bool, into repair: inout PrivacyRepair) throws(DataDirectoryError) {
        var info = stat()
        guard lstat(entry, &info) == 0 else { return }
        let mode = info.st_mode & 0o7777
        let wanted: mode_t = isFolder ? 0o700 : 0o600
        guard mode & 0o077 != 0 || mode & wanted != wanted else { return }
        guard chmod(entry, wanted) == 0 else { throw .unwritable(entry, String(cString: strerror(errno))) }
        if isFolder { repair.folders.append((entry, mode)) } else { repair.files.append((entry, mode)) }
    }

    /// The hunt's secret if one was ever made here; nil before the first code was printed.
    public func existingSecret(forHunt huntID: String) throws(DataDirectoryError) -> HuntSecret? {
        try readSecret("\(path)/secrets/\(huntID.uppercased()).key")
    }

    /// The hunt's secret, made (and stored) on first use.
    public func secret(forHunt huntID: String) throws(DataDirectoryError) -> HuntSecret {
        let folder = path + "/secrets"
        try makeDirectory(path)
        try makeDirectory(folder)
        let file = "\(folder)/\(huntID.uppercased()).key"
        if let existing = try readSecret(file) { return existing }
        let fresh = HuntSecret.random()
        // Written beside, then linked into place: link() refuses to replace a file, so two
        // processes that start at once both end up with whichever secret landed first.
        let temporary = "\(file).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        try write(fresh.bytes, to: temporary)
        defer { unlink(temporary) }
        if link(temporary, file) != 0, errno != EEXIST {
            throw .unwritable(file, String(cString: strerror(errno)))
        }
        guard let stored = try readSecret(file) else { throw .corrupt(file) }
        return stored
    }

    /// A new secret for the hunt, written (mode 0600, synced) beside the current one but not yet
    /// in force: `install()` renames it into place, atomically, so the hunt always has exactly
    /// one whole secret; `discard()` removes it. The caller records the rotation in between,
    /// so a failure on either side leaves the old secret and no record.
    ///
    /// ```swift
    /// let next = try data.stageSecretRotation(forHunt: "DEMO")
    /// try await store.recordSecretRotation(hunt: "DEMO", fingerprint: SecretRotation.fingerprint(of: next.secret), …)
    /// try next.install()
    /// ```
    public func stageSecretRotation(forHunt huntID: String) throws(DataDirectoryError) -> StagedSecret {
        let folder = path + "/secrets"
        try makeDirectory(path)
        try makeDirectory(folder)
        let file = "\(folder)/\(huntID.uppercased()).key"
        let temporary = "\(file).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fresh = HuntSecret.random()
        try write(fresh.bytes, to: temporary)
        return StagedSecret(secret: fresh, file: file, temporary: temporary, folder: folder)
    }

    private func readSecret(_ file: String) throws(DataDirectoryError) -> HuntSecret? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .unreadable(file, String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: HuntSecret.byteCount + 1)
        let n = read(fd, &bytes, bytes.count)
        guard n == HuntSecret.byteCount, let secret = HuntSecret(bytes: bytes.prefix(n)) else { throw .corrupt(file) }
        return secret
    }

    private func write(_ bytes: [UInt8], to file: String) throws(DataDirectoryError) {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(file, String(cString: strerror(errno))) }
        defer { close(fd) }
        guard Foundation.write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
            throw .unwritable(file, String(cString: strerror(errno)))
        }
    }

    private func makeDirectory(_ dir: String) throws(DataDirectoryError) {
        if mkdir(dir, 0o700) == 0 || errno == EEXIST {
            var info = stat()
            guard stat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw .unwritable(dir, "exists and is not a directory")
            }
            return
        }
        if errno == ENOENT {
            // Parent missing: make it the way `mkdir -p` would, still private.
            try makeDirectory((dir as NSString).deletingLastPathComponent)
            guard mkdir(dir, 0o700) == 0 || errno == EEXIST else { throw .unwritable(dir, String(cString: strerror(errno))) }
            return
        }
        throw .unwritable(dir, String(cString: strerror(errno)))
    }
}

/// A hunt's next secret, written but not yet in force (see ``DataDirectory/stageSecretRotation(forHunt:)``).
public struct StagedSecret: Sendable {
    public let secret: HuntSecret
    let file: String
    let temporary: String
    let folder: String

    /// Puts the new secret in force: rename over the old one, then sync the folder so the
    /// rename survives power loss.
    public func install() throws(DataDirectoryError) {
        guard rename(temporary, file) == 0 else {
            let why = String(cString: strerror(errno))
            discard()
            throw .unwritable(file, why)
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// Forgets the new secret; the old one stays in force.
    public func discard() { unlink(temporary) }
}

/// What ``DataDirectory/makePrivate()`` tightened: folders made 0700 and files made 0600,
/// each with the mode it had.
public struct PrivacyRepair: Sendable, CustomStringConvertible {
    public let folder: String
    public var folders: [(path: String, mode: mode_t)] = []
    public var files: [(path: String, mode: mode_t)] = []

    public var isEmpty: Bool { folders.isEmpty && files.isEmpty }

    /// One line for the game master: "data folder /srv/geoqr was readable by other users:
    /// 2 folders made 0700 (/srv/geoqr was 0755), 3 files made 0600 (ledger.sqlite was 0644)".
    public var description: String {
        var parts: [String] = []
        if let first = folders.first {
            parts.append("\(folders.count) folder\(folders.count == 1 ? "" : "s") made 0700 (\(name(first.path)) was \(octal(first.mode)))")
        }
        if let first = files.first {
            parts.append("\(files.count) file\(files.count == 1 ? "" : "s") made 0600 (\(name(first.path)) was \(octal(first.mode)))")
        }
        return "data folder \(folder) was readable by other users: " + parts.joined(separator: ", ")
    }

    private func name(_ path: String) -> String {
        path == folder ? path : String(path.dropFirst(folder.count + 1))
    }

    private func octal(_ mode: mode_t) -> String { "0" + String(mode, radix: 8) }
}

/// Why the data directory could not be used.
public enum DataDirectoryError: Error, Equatable, CustomStringConvertible {
    case noDefault
    case unreadable(String, String)
    case unwritable(String, String)
    case corrupt(String)

    public var description: String {
        switch self {
        case .noDefault: "no data directory: pass --data DIR or set GEOQR_DATA"
        case .unreadable(let p, let why): "\(p): cannot read secret: \(why)"
        case .unwritable(let p, let why): "\(p): cannot write to the data directory: \(why) (pass --data DIR or set GEOQR_DATA)"
        case .corrupt(let p): "\(p): is not a GeoQR secret (\(HuntSecret.byteCount) bytes); move it aside to make a new one, which voids codes already printed"
        }
    }
}
