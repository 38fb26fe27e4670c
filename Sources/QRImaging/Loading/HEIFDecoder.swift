import CHeif
import Foundation

/// HEIC/HEIF to grey through libheif: the primary image's luma plane, with the file's own
/// rotation, mirroring and cropping applied (libheif does that while decoding), and the
/// primary image's EXIF block, which a HEIC keeps in a metadata item rather than a segment.
enum HEIFDecoder {
    /// Reads the header, checks the size against `limits`, then decodes; also hands back the
    /// EXIF block, if the file has one, as libheif stores it: a 4-byte big-endian offset to the
    /// TIFF header, then the block (`PhotoMetadata(heifExifBlock:)` reads that form).
    static func decode(_ bytes: [UInt8], limits: PictureLimits) throws(PictureError) -> (image: GrayImage, exif: [UInt8]?) {
        let context = try HEIFContext(bytes)
        let handle = try context.primaryImage()
        try limits.check(width: handle.width, height: handle.height)
        return (try handle.decodeGray(), handle.exifBlock())
    }

    /// Largest width or height libheif may parse.
    static let maxSide: Int32 = 16_384

    fileprivate static func check(_ error: heif_error) throws(PictureError) {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        throw .unreadable(format: .heic, reason: reason)
    }
}

/// An owned `heif_context` over a private copy of the file's bytes (libheif reads them lazily).
private final class HEIFContext {
    let pointer: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer

    init(_ data: [UInt8]) throws(PictureError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        let context = heif_context_alloc()!
        // libheif's own limit on every image it parses (tiles, thumbnails, the grid), before
        // it allocates for them: the widest phone photo (200 MP) is 16,320 px.
        heif_context_set_maximum_image_size_limit(context, HEIFDecoder.maxSide)
        do {
            try HEIFDecoder.check(heif_context_read_from_memory_without_copy(context, copy.baseAddress, data.count, nil))
        } catch {
            heif_context_free(context)
            copy.deallocate()
            throw error
        }
        bytes = copy
        pointer = context
    }

    deinit {
        heif_context_free(pointer)
        bytes.deallocate()
    }

    func primaryImage() throws(PictureError) -> HEIFImageHandle {
        var handle: OpaquePointer?
        try HEIFDecoder.check(heif_context_get_primary_image_handle(pointer, &handle))
        guard let handle else { throw .unreadable(format: .heic, reason: "no primary image") }
        return HEIFImageHandle(handle, context: self)
    }
}

/// An owned `heif_image_handle`; keeps its context alive.
private final class HEIFImageHandle {
    let pointer: OpaquePointer
    private let context: HEIFContext

    init(_ pointer: OpaquePointer, context: HEIFContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit { heif_image_handle_release(pointer) }

    /// Size after the file's transformations (a rotated photo reports its upright size).
    var width: Int { Int(heif_image_handle_get_width(pointer)) }
    var height: Int { Int(heif_image_handle_get_height(pointer)) }

    /// Grey pixels: the luma plane as decoded when the file is 8-bit YCbCr or monochrome
    /// (camera photos: no colour conversion at all); otherwise (RGB-coded, as heif-enc makes
    /// from a PNG, or 10-bit) libheif converts to 8-bit RGB and luma is computed from that.
    func decodeGray() throws(PictureError) -> GrayImage {
        if let luma = try decode(heif_colorspace_undefined, heif_chroma_undefined).luma() { return luma }
        return try decode(heif_colorspace_RGB, heif_chroma_interleaved_RGB).lumaFromRGB()
    }

    private func decode(_ colorspace: heif_colorspace, _ chroma: heif_chroma) throws(PictureError) -> HEIFImage {
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try HEIFDecoder.check(heif_decode_image(pointer, &image, colorspace, chroma, options))
        guard let image else { throw .unreadable(format: .heic, reason: "no image decoded") }
        return HEIFImage(image)
    }

    /// Largest EXIF block read: EXIF lives in 64 KB in JPEG; this leaves room for HEIC's
    /// thumbnails without letting a hostile size claim memory.
    static let maxExifBytes = 1 << 20

    /// The first `Exif` metadata block, exactly as stored; nil when there is none.
    func exifBlock() -> [UInt8]? {
        var id = heif_item_id()
        guard heif_image_handle_get_list_of_metadata_block_IDs(pointer, "Exif", &id, 1) == 1 else { return nil }
        let size = heif_image_handle_get_metadata_size(pointer, id)
        guard size > 4, size <= Self.maxExifBytes else { return nil }
        var block = [UInt8](repeating: 0, count: size)
        let error = block.withUnsafeMutableBytes { heif_image_handle_get_metadata(pointer, id, $0.baseAddress) }
        return error.code == heif_error_Ok ? block : nil
    }
}

/// An owned decoded `heif_image`.
private final class HEIFImage {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { heif_image_release(pointer) }

    /// The luma plane, when there is one of 8 bits (YCbCr, monochrome); else nil.
    func luma() throws(PictureError) -> GrayImage? {
        guard heif_image_has_channel(pointer, heif_channel_Y) != 0,
              heif_image_get_bits_per_pixel_range(pointer, heif_channel_Y) == 8 else { return nil }
        return try plane(heif_channel_Y, bytesPerPixel: 1) { row, x in row[x] }
    }

    /// Luma computed from interleaved 8-bit RGB or RGBA.
    func lumaFromRGB() throws(PictureError) -> GrayImage {
        guard heif_image_has_channel(pointer, heif_channel_interleaved) != 0 else {
            throw .unreadable(format: .heic, reason: "no luma or RGB plane")
        }
        let step = heif_image_get_chroma_format(pointer) == heif_chroma_interleaved_RGBA ? 4 : 3
        return try plane(heif_channel_interleaved, bytesPerPixel: step) { row, x in
            let p = x * step
            return UInt8((Int(row[p]) * 77 + Int(row[p + 1]) * 150 + Int(row[p + 2]) * 29) >> 8)
        }
    }

    private func plane(_ channel: heif_channel, bytesPerPixel: Int,
                       sample: (UnsafePointer<UInt8>, Int) -> UInt8) throws(PictureError) -> GrayImage {
        let width = Int(heif_image_get_width(pointer, channel)), height = Int(heif_image_get_height(pointer, channel))
        guard heif_image_get_bits_per_pixel_range(pointer, channel) == 8 else {
            throw .unreadable(format: .heic, reason: "only 8-bit samples are supported")
        }
        var stride: Int32 = 0
        guard width > 0, height > 0, let base = heif_image_get_plane_readonly(pointer, channel, &stride) else {
            throw .unreadable(format: .heic, reason: "empty image plane")
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = base + y * Int(stride)
            for x in 0..<width { pixels[y * width + x] = sample(row, x) }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
