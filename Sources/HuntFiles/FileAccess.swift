import Foundation

/// Why a file could not be read or written, in words that say which file and what to do.
public enum FileError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notReadable(String, String)
    case tooLarge(String, size: Int, limit: Int)
    case notWritable(String, String)

    public var description: String {
        switch self {
        case .missing: "no such file"
        case .notReadable(_, let why): "cannot read: \(why)"
        case .tooLarge(_, let size, let limit): "is \(size) bytes, more than the \(limit)-byte limit"
        case .notWritable(let path, let why): "\(path): cannot write: \(why)"
        }
    }
}

/// Reading with a size limit checked before the bytes are loaded, and writing that never
/// leaves a half-written file: write a temporary file beside the target, then rename it.
public enum FileAccess {
    public static func read(_ path: String, limit: Int) throws(FileError) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT ? .missing(path) : .notReadable(path, String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notReadable(path, "not a regular file") }
        guard Int(info.st_size) <= limit else { throw .tooLarge(path, size: Int(info.st_size), limit: limit) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .notReadable(path, String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            // Read one byte past the limit: a file that grew since stat() is still refused.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw FileError.tooLarge(path, size: data.count, limit: limit) }
            return data
        } catch let error as FileError {
            throw error
        } catch {
            throw .notReadable(path, error.localizedDescription)
        }
    }

    /// Writes `data` to `path` atomically with the given permissions; `-` means standard output.
    /// The rename means a reader never sees a partial file, even if GeoQR is killed midway.
    /// No fsync: these are sheets and images, remade in a second; the ledger does its own.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws(FileError) {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .notWritable(path, String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .notWritable(path, failure)
        }
    }
}
