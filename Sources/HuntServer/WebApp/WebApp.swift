import Foundation
import Hummingbird

/// The phone web app (`index.html`, `app.js`, `claim.html`, the icons…) and the API's
/// description (`openapi.yaml`) that the hunt server serves: built into geoqr, so it runs from
/// any folder, or a folder on disk, read afresh at every request, for work on the pages.
///
/// Paths are those under `assets/`: `web/claim.html`, `web/icons/icon-192.png`, `openapi.yaml`.
///
/// ```swift
/// WebApp.builtIn.contents(of: "web/claim.html")?.count     // 953
/// let pages = try WebApp(folder: "assets/web")              // and assets/openapi.yaml beside it
/// pages.contents(of: "openapi.yaml")?.starts(with: Array("openapi: 3.1".utf8))   // true
/// ```
public struct WebApp: Sendable {
    enum Source: Sendable {
        /// Built in at build time (the EmbedWebApp plugin), each file with its ETag, held from
        /// start to stop.
        case builtIn([String: HeldFile])
        /// A folder like `assets/web`, with `openapi.yaml` in the folder above it.
        case folder(String)
    }

    let source: Source

    /// The web app built into this binary from the checkout's `assets/` (the default).
    public static let builtIn = WebApp(source: .builtIn(Dictionary(uniqueKeysWithValues: builtInFiles.map { file in
        // no-cache: a phone keeps the file but asks whether it changed (a 304 by ETag), so a
        // new geoqr's pages show at once.
        (file.path, HeldFile(bytes: Data(base64Encoded: file.base64) ?? Data(), type: file.type, cacheControl: "no-cache"))
    })))

    /// The web app in `folder` (a folder with `index.html`, such as `assets/web`), read from disk
    /// at every request, so a changed page shows on the next reload; `openapi.yaml` is read from
    /// the folder above it.
    /// - throws: ``WebAppError`` when `folder` has no `index.html`.
    public init(folder: String) throws(WebAppError) {
        let path = (folder as NSString).standardizingPath
        guard FileManager.default.fileExists(atPath: path + "/index.html") else { throw WebAppError(folder: folder) }
        source = .folder(path)
    }

    init(source: Source) {
        self.source = source
    }

    /// The folder it is served from; nil when built in.
    public var folder: String? {
        if case .folder(let path) = source { return path }
        return nil
    }

    /// The bytes of the file at `path` under `assets/` (`web/claim.html`, `openapi.yaml`), or nil
    /// when there is none.
    public func contents(of path: String) -> [UInt8]? {
        switch source {
        case .builtIn(let files):
            return files[path]?.bytes
        case .folder(let web):
            guard !path.split(separator: "/").contains("..") else { return nil }
            let file = path.hasPrefix("web/") ? web + path.dropFirst(3)
                                              : (web as NSString).deletingLastPathComponent + "/" + path
            return FileManager.default.contents(atPath: file).map { [UInt8]($0) }
        }
    }

    /// The built-in file a request's path names (`/` and `/icons/` name their `index.html`);
    /// nil for a folder, which Hummingbird's `FileMiddleware` serves (see ``WebAppFiles``).
    func builtInFile(at requestPath: String) -> HeldFile? {
        guard case .builtIn(let files) = source, var path = requestPath.removingPercentEncoding,
              path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        if path.hasSuffix("/") { path += "index.html" }
        return files["web" + path]
    }
}

/// One file as the EmbedWebApp plugin writes it into the binary: its path under `assets/`, the
/// type it is served as, its bytes in base64.
struct BuiltInFile {
    let path: String
    let type: String
    let base64: String
}

/// `--web` named a folder with no web app in it: `/tmp/pages has no index.html`.
public struct WebAppError: Error, CustomStringConvertible {
    public let folder: String
    public var description: String {
        "\(folder) has no index.html (a web app folder is like assets/web of a GeoQR checkout)"
    }
}
