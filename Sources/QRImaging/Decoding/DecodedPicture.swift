/// What `PictureDecoder.decode(fileBytes:)` found in a file.
public struct DecodedPicture: Sendable {
    /// The file's format, size and orientation.
    public let picture: Picture
    /// The upright grey image: full size, unless the quick reduced pass found the code and no
    /// full-size decode was needed (then `image.width < picture.width`).
    public let image: GrayImage
    /// Every distinct code found, corners in the upright full-size picture's pixels.
    public let symbols: [DecodedSymbol]
    /// The pass that found each symbol (same order as `symbols`).
    public let passes: [DecodePass]

    /// A symbol's corners in the file's stored pixels, before EXIF orientation: where zbarimg
    /// and ZXingReader, which ignore orientation, report them.
    public func storedCorners(of symbol: DecodedSymbol) -> [(x: Int, y: Int)] {
        symbol.corners.map { p in
            let q = picture.storedPoint(x: Double(p.x), y: Double(p.y))
            return (x: Int(q.x.rounded()), y: Int(q.y.rounded()))
        }
    }
}
