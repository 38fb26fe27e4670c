import Foundation

/// Leaflet, the map library, as Debian's `libjs-leaflet` installs it, served by geoqr itself
/// under `/vendor/leaflet/` (no CDN: a hunt may have no internet). Read once at start and held
/// in memory: about 160 KB.
///
/// `/vendor/leaflet/leaflet.js` is the minified build (`leaflet.min.js` in Debian's folder) when
/// there is one, so the page's tag stays the same and the phone loads the small file.
///
/// ```swift
/// let leaflet = try Leaflet(folder: Leaflet.debianFolder)
/// leaflet.file("leaflet.js")?.bytes.count   // 140987
/// ```
public struct Leaflet: Sendable {
    /// Where `libjs-leaflet` puts it.
    public static let debianFolder = "/usr/share/javascript/leaflet"

    public let folder: String
    /// Files by their path under `/vendor/leaflet/`.
    let files: [String: HeldFile]

    /// A week: the files change only when the package does.
    static let cacheControl = "public, max-age=604800"

    /// Reads `leaflet.js` (or `leaflet.min.js`), `leaflet.css` and `images/*.png` from `folder`.
    /// - throws: ``LeafletError`` when the script or the style sheet is not there.
    public init(folder: String) throws(LeafletError) {
        self.folder = folder
        func read(_ name: String) -> Data? { FileManager.default.contents(atPath: folder + "/" + name) }
        guard let script = read("leaflet.min.js") ?? read("leaflet.js") else { throw LeafletError(folder: folder, missing: "leaflet.js") }
        guard let style = read("leaflet.css") else { throw LeafletError(folder: folder, missing: "leaflet.css") }
        var files = [
            "leaflet.js": HeldFile(bytes: script, type: "text/javascript; charset=utf-8", cacheControl: Self.cacheControl),
            "leaflet.css": HeldFile(bytes: style, type: "text/css; charset=utf-8", cacheControl: Self.cacheControl),
        ]
        let images = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/images")) ?? []
        for name in images where name.hasSuffix(".png") {
            if let png = read("images/" + name) {
                files["images/" + name] = HeldFile(bytes: png, type: "image/png", cacheControl: Self.cacheControl)
            }
        }
        self.files = files
    }

    /// The file at `path` under `/vendor/leaflet/`, if Leaflet has one.
    func file(_ path: String) -> HeldFile? { files[path] }
}

/// Leaflet is not where geoqr looked: `/usr/share/javascript/leaflet has no leaflet.js`.
public struct LeafletError: Error, CustomStringConvertible {
    public let folder: String
    public let missing: String
    public var description: String { "\(folder) has no \(missing) (install libjs-leaflet, or pass --leaflet DIR)" }
}
