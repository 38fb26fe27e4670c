import Foundation

/// A small tmpfs of the test's own, for faults a file's permissions cannot make when the
/// tests run as root: a full disk, a read-only filesystem. Needs the right to mount; where it
/// is missing, `available` is false and the tests that need it are skipped.
final class ScratchMount {
    let path: String

    init(bytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.mount(["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            throw MountFailure()
        }
    }

    func remount(readOnly: Bool) -> Bool { Self.mount(["-o", readOnly ? "remount,ro" : "remount,rw", path]) }

    /// Bytes still free on the mount.
    var freeBytes: Int {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return 0 }
        return Int(s.f_bavail) * Int(s.f_frsize)
    }

    deinit {
        _ = Self.mount(["-l", path], command: "/bin/umount")
        try? FileManager.default.removeItem(atPath: path)
    }

    static let available: Bool = {
        guard getuid() == 0, let probe = try? ScratchMount(bytes: 65536) else { return false }
        _ = probe
        return true
    }()

    private static func mount(_ arguments: [String], command: String = "/bin/mount") -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command)
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    struct MountFailure: Error {}
}
