import Foundation
import QRImaging

/// Where `scan` and `watch` turn pixels into code texts: picture loading (PNG, JPEG with EXIF
/// orientation, HEIC) and the decode passes around zbar. A photo is searched for every code
/// (it may hold a cache's code beside some other QR); a camera frame stops at the first pass
/// that finds one, since the next frame comes a moment later.
final class CodeFinder {
    private let decoder = PictureDecoder(findAll: true)
    private let frameDecoder = PictureDecoder()

    /// The texts of the codes in an image file's bytes, in the order found.
    func codes(inFile data: Data) throws -> [String] {
        do {
            return try decoder.decode(fileBytes: data).symbols.map(\.text)
        } catch {
            throw CodeFinderError(error.description)
        }
    }

    /// The texts of the codes in one camera frame.
    func codes(inFrame image: GrayImage) -> [String] {
        frameDecoder.decode(image).map(\.text)
    }
}

/// Why a picture gave no pixels to look at.
struct CodeFinderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
