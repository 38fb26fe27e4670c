import Foundation

/// Finds codes in camera frames, which a phone's browser sends a few a second while its player
/// aims; a frame without a code costs less than one zbar pass.
///
/// Frames of 1200 px and up are read first as a reduced copy. Otherwise the frame is binarised
/// locally, and what the binarised frame shows (``CodeCorners``) decides zbar's passes:
/// - three finder patterns placed as a code's corners: zbar reads the frame as it is, then the
///   binarised frame for dark-centred corners (shadows, glare, low contrast) and the inverted
///   frame for light-centred ones (codes printed light on dark);
/// - no such corners: one sparse pass over the frame as it is, every second row and column
///   where the binarised frame shows three finder-like places or more, every fourth where it
///   shows one or two (half and a quarter of a full pass);
/// - not one finder-like place: no pass. A code's finder patterns show as such places frames
///   before zbar can read it, as a phone walks up (from modules of a third of a pixel, in
///   every print of `FrameDecoderTests`); a frame of sky and pavement then costs the
///   binarising alone. The quarter pass over such frames was half the server's work on
///   frames, a sixth of all of it, at 10,000 phones with one in a hundred aiming.
///
/// The sparse pass is there because the gate can miss a code zbar reads: in the approach clip
/// with a hard shadow, the first frame zbar reads shows three finder patterns that fail the
/// gate's corner and timing tests, and every second line still reads it. Most of what a phone
/// sends while its player walks up holds no code, and now costs the binarising and a fraction
/// of a zbar pass where it cost a full pass and the binarising. `FrameDecoderTests` holds it to reading
/// codes no later than every pass run on every frame, over clips of a phone approaching a code
/// and of one held close. Counting finder-like places alone was not enough as a gate: gravel,
/// foliage and sensor noise hold dozens.
///
/// Owns a zbar scanner: one per thread.
///
/// ```swift
/// let decoder = FrameDecoder()
/// let codes = try decoder.decode(fileBytes: jpeg).map(\.text)
/// ```
public final class FrameDecoder {
    /// What zbar looked at: `reduced` for frames of 1200 px and up; `sparse`, every second or
    /// fourth line of a frame that shows no code's corners but finder-like places; else `full`,
    /// then `binarized` and `inverted` as the corners' polarity asks. None at all for a frame
    /// with no finder-like place.
    public enum Pass: String, Sendable { case reduced, sparse, full, binarized, inverted }

    /// Scan-line spacing of the `sparse` pass: over a frame with three finder-like places or
    /// more, and over one with fewer.
    static let sparseDensity = (places: 2, fewer: 4)

    private let reader: SymbolReader
    /// What each frame went through, for tests and benchmarks: the passes zbar ran.
    public private(set) var lastPasses: [Pass] = []

    public init(symbologies: Set<Symbology> = [.qr]) {
        reader = SymbolReader(symbologies: symbologies)
    }

    /// Reads a JPEG or PNG frame's bytes and finds its codes.
    public func decode(fileBytes: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) -> [DecodedSymbol] {
        let picture = try Picture(data: fileBytes, limits: limits)
        lastPasses = []
        if let n = DecodePass.reduction(width: picture.width, height: picture.height) {
            let small = try picture.image(reduction: n)
            let map = PointMap.scaling(from: small, toWidth: picture.width, toHeight: picture.height)
            lastPasses.append(.reduced)
            let found = reader.read(small)
            if !found.isEmpty { return found.map { $0.mapped(map) } }
        }
        return decodeFullSize(try picture.image())
    }

    /// The codes in a grey frame, corners in its pixels.
    public func decode(_ frame: GrayImage) -> [DecodedSymbol] {
        lastPasses = []
        if let n = DecodePass.reduction(width: frame.width, height: frame.height) {
            let small = frame.reduced(by: n)
            lastPasses.append(.reduced)
            let found = reader.read(small)
            let map = PointMap.scaling(from: small, toWidth: frame.width, toHeight: frame.height)
            if !found.isEmpty { return found.map { $0.mapped(map) } }
        }
        return decodeFullSize(frame)
    }

    private func decodeFullSize(_ frame: GrayImage) -> [DecodedSymbol] {
        let stretched = frame.stretched()
        let binary = stretched.binarized(window: stretched.adaptiveWindow)
        let corners = binary.codeCorners()
        guard corners.dark || corners.light else {
            guard corners.places > 0 else { return [] }
            lastPasses.append(.sparse)
            return reader.read(frame, density: corners.places >= 3 ? Self.sparseDensity.places : Self.sparseDensity.fewer)
        }
        lastPasses.append(.full)
        let found = reader.read(frame)
        guard found.isEmpty else { return found }
        if corners.dark {
            lastPasses.append(.binarized)
            let found = reader.read(binary)
            if !found.isEmpty { return found }
        }
        if corners.light {
            lastPasses.append(.inverted)
            return reader.read(stretched.inverted())
        }
        return []
    }
}
