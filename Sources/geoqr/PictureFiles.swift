import Foundation

/// The files a decode runs over, in the order given: folders walked recursively (sorted, hidden
/// entries skipped, only image extensions), and whatever could not be listed or read as an
/// entry that carries its error.
struct PictureInput: Sendable {
    /// The path as given, or as found under a given folder.
    let path: String
    /// Why this entry cannot be read, found while listing.
    let problem: String?

    static let extensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "heic", "heif", "hif"]

    static func expand(_ arguments: [String]) -> [PictureInput] {
        arguments.flatMap { argument -> [PictureInput] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                return [PictureInput(path: argument, problem: "no such file or folder")]
            }
            return isFolder.boolValue ? walk(argument) : [PictureInput(path: argument, problem: nil)]
        }
    }

    private static func walk(_ folder: String) -> [PictureInput] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            return [PictureInput(path: folder, problem: "cannot list folder: \(reason(error))")]
        }
        return names.filter { !$0.hasPrefix(".") }.flatMap { name -> [PictureInput] in
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                return [PictureInput(path: path, problem: "dangling link")]
            }
            if isFolder.boolValue { return walk(path) }
            return extensions.contains((name as NSString).pathExtension.lowercased()) ? [PictureInput(path: path, problem: nil)] : []
        }
    }

    /// The file's bytes; its size is checked before they are read.
    func read(limit: Int) throws(PictureFileError) -> Data {
        if let problem { throw PictureFileError(problem) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw PictureFileError("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PictureFileError("cannot read: \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw PictureFileError("not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw PictureFileError("file is \(size / 1_000_000) MB, more than the \(limit / 1_000_000) MB limit")
        }
        var data = Data(count: size)
        var done = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 { if errno == EINTR { continue }; return errno }
                if n == 0 { break }
                done += n
            }
            return nil
        }
        if let failure { throw PictureFileError("cannot read: \(String(cString: strerror(failure)))") }
        data.count = done
        return data
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }
}

/// Why a listed file could not be read.
struct PictureFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
