import Foundation
import QRImaging

/// Where `scan` and `watch` turn pixels into code texts: the one seam between them and the
/// picture loading and decode passes. Until JPEG/HEIC loading and the harder passes land
/// (branch `decode`), files are PNG only and read in one zbar pass; then `codes(inFile:)`
/// becomes `try decoder.decode(fileBytes: data).symbols.map(\.text)` over a `PictureDecoder`,
/// and `codes(inFrame:)` becomes `decoder.decode(image).map(\.text)`.
final class CodeFinder {
    private let reader = SymbolReader()

    /// The texts of the codes in an image file's bytes, in the order found.
    func codes(inFile data: Data) throws -> [String] {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            throw CodeFinderError("only PNG pictures are read by this build (JPEG and HEIC loading is not merged yet)")
        }
        let image: GrayImage
        do { image = try PNGCodec.decode(data) } catch { throw CodeFinderError(error.description) }
        return reader.read(image).map(\.text)
    }

    /// The texts of the codes in one camera frame.
    func codes(inFrame image: GrayImage) -> [String] {
        reader.read(image).map(\.text)
    }
}

/// Why a picture gave no pixels to look at.
struct CodeFinderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
