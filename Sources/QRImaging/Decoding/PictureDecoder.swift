import Foundation

/// Finds codes in pictures: zbar does the decoding; around it, the passes in `DecodePass`
/// that get harder only when the easier ones found nothing. Owns a zbar scanner, so use one
/// per thread.
///
/// ```swift
/// let decoder = PictureDecoder()
/// let result = try decoder.decode(fileBytes: try Data(contentsOf: url))
/// for symbol in result.symbols { print(symbol.text) }
/// let inFrame = decoder.decode(cameraFrame)   // a GrayImage
/// ```
public final class PictureDecoder {
    /// Passes in the order tried.
    public let passes: [DecodePass]
    /// Keep going through every pass and report every distinct code (by raw bytes).
    public let findAll: Bool
    /// Which codes end the search (unless `findAll`): any, by default; a caller that looks for
    /// one kind of code among others (a cache's code beside a poster's) goes on past passes that
    /// found only the others.
    public let sought: @Sendable (String) -> Bool
    private let reader: SymbolReader

    public init(symbologies: Set<Symbology> = [.qr], passes: [DecodePass] = DecodePass.standard, findAll: Bool = false,
                sought: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.passes = passes
        self.findAll = findAll
        self.sought = sought
        reader = SymbolReader(symbologies: symbologies)
    }

    /// The codes in a grey image (a camera frame, say), corners in its pixels.
    public func decode(_ image: GrayImage) -> [DecodedSymbol] {
        var small: GrayImage?
        return findings(width: image.width, height: image.height) { pass in
            guard pass.onReducedCopy else { return pass.render(image) }
            guard let n = DecodePass.reduction(width: image.width, height: image.height) else { return nil }
            if small == nil { small = image.reduced(by: n) }
            return small.flatMap { pass.render(reducedCopy: $0, fullWidth: image.width, fullHeight: image.height) }
        }.map(\.symbol)
    }

    /// Reads a PNG, JPEG or HEIC file's bytes and finds its codes. Corners are in the upright
    /// full-size picture; `DecodedPicture.storedCorners(of:)` gives them in the file's pixels.
    public func decode(fileBytes: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) -> DecodedPicture {
        let picture = try Picture(data: fileBytes, limits: limits)
        var small: GrayImage?, full: GrayImage?
        var failure: PictureError?
        let found = findings(width: picture.width, height: picture.height) { pass in
            do {
                if pass.onReducedCopy {
                    guard let n = DecodePass.reduction(width: picture.width, height: picture.height) else { return nil }
                    if small == nil { small = try picture.image(reduction: n) }
                    return small.flatMap { pass.render(reducedCopy: $0, fullWidth: picture.width, fullHeight: picture.height) }
                }
                if full == nil { full = try picture.image() }
                return full.flatMap { pass.render($0) }
            } catch {
                failure = failure ?? (error as? PictureError)
                return nil
            }
        }
        guard let image = full ?? small else { throw failure ?? .unreadable(format: picture.format, reason: "no pixels") }
        return DecodedPicture(picture: picture, image: image, symbols: found.map(\.symbol), passes: found.map(\.pass))
    }

    /// Runs the passes over images `render` makes; symbols mapped to full-size coordinates.
    private func findings(width: Int, height: Int,
                          render: (DecodePass) -> (GrayImage, PointMap)?) -> [(symbol: DecodedSymbol, pass: DecodePass)] {
        var found: [(symbol: DecodedSymbol, pass: DecodePass)] = []
        var seen = Set<[UInt8]>()
        for pass in passes {
            guard !pass.repeatsEarlier(in: passes, width: width, height: height),
                  let (image, map) = render(pass) else { continue }
            for symbol in reader.read(image, density: pass.scanDensity) {
                let key = Array(symbol.symbology.utf8) + [0] + symbol.raw
                guard seen.insert(key).inserted else { continue }
                found.append((symbol.mapped(map), pass))
            }
            if !findAll, found.contains(where: { sought($0.symbol.text) }) { break }
        }
        return found
    }
}
