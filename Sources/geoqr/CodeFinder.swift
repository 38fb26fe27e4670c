import Foundation
import PhotoMetadata
import QRImaging

/// Where `scan` and `watch` turn pixels into code texts: picture loading (PNG, JPEG with EXIF
/// orientation, HEIC) and the decode passes around zbar. A photo is searched for every code
/// (it may hold a cache's code beside some other QR); a camera frame stops at the first pass
/// that finds one, since the next frame comes a moment later.
final class CodeFinder {
    private let decoder = PictureDecoder(findAll: true)
    private let frameDecoder = PictureDecoder()

    /// The texts of the codes in a photo's bytes, in the order found, and where and when its
    /// EXIF says it was taken: from the file's bytes (JPEG, PNG), or from the metadata item
    /// libheif found while decoding (HEIC).
    func photo(inFile data: Data) throws -> (codes: [String], metadata: PhotoMetadata?) {
        let decoded: DecodedPicture
        do {
            decoded = try decoder.decode(fileBytes: data)
        } catch {
            throw CodeFinderError(error.description)
        }
        let metadata = PhotoMetadata(fileBytes: data) ?? decoded.picture.heifExifBlock.flatMap(PhotoMetadata.init(heifExifBlock:))
        return (decoded.symbols.map(\.text), metadata)
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
