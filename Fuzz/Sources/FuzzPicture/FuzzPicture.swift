import Foundation
import QRImaging

// Picture loading as the hunt server's claim routes do it (`ClaimController.decode`): the
// photo route's file-size limit and the default 50-megapixel cap, then the camera-frame
// route's quick passes (reduced, full, stretched, binarized), which decode the pixels at a
// reduction and at full size. Errors are expected; crashes and memory errors are not.

/// `BodyLimits.photo`: the largest upload the claim-photo route reads.
let limits = PictureLimits(maxFileBytes: 20 * 1024 * 1024)
/// One decoder for the process, as one per thread is the rule (it owns a zbar scanner).
nonisolated(unsafe) let decoder = PictureDecoder(passes: [.reduced, .full, .stretched, .binarized])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPicture(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let picture = try? Picture(data: data, limits: limits) else { return 0 }
    precondition(picture.width > 0 && picture.height > 0, "a loaded picture has pixels")
    if let decoded = try? decoder.decode(fileBytes: data, limits: limits) {
        for symbol in decoded.symbols { _ = decoded.storedCorners(of: symbol) }
    }
    if let full = try? picture.image() {
        precondition(full.width == picture.width && full.height == picture.height,
                     "full-size pixels are \(full.width)×\(full.height), header said \(picture.width)×\(picture.height)")
        precondition(full.pixels.count == full.width * full.height)
    }
    return 0
}
