import Foundation

/// Finds codes in camera frames, which a phone's browser sends a few a second while its player
/// aims, at about the cost of one zbar pass each.
///
/// The frame is read as it is (a reduced copy first for frames of 1200 px and up). Only when
/// that finds nothing is it binarised locally, and zbar runs again only where the binarised
/// frame holds three finder patterns placed as a code's corners (``CodeCorners``):
/// dark-centred ones send zbar over the binarised frame (shadows, glare, low contrast),
/// light-centred ones over the inverted frame (codes printed light on dark). A frame without a
/// code, most of what a phone sends while its player walks up, then costs one zbar pass and a
/// pass over its rows, where running both harder passes cost about three. A frame in which zbar
/// could read a code always has its three finder patterns for the gate to see, so no code is
/// read later than with both passes run every time (`FrameDecoderTests` holds it to that over
/// clips of a phone approaching a code). Counting finder-like places alone was not enough:
/// gravel, foliage and sensor noise hold dozens, and opened the gate on most such frames.
///
/// Owns a zbar scanner: one per thread.
///
/// ```swift
/// let decoder = FrameDecoder()
/// let codes = try decoder.decode(fileBytes: jpeg).map(\.text)
/// ```
public final class FrameDecoder {
    /// Passes in the order they may run; the last two only past the finder-pattern gate.
    public static let passes: [DecodePass] = [.reduced, .full, .binarized, .inverted]

    private let reader: SymbolReader
    /// What each frame went through, for tests and benchmarks: the passes zbar ran.
    public private(set) var lastPasses: [DecodePass] = []

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
        lastPasses.append(.full)
        let found = reader.read(frame)
        guard found.isEmpty else { return found }
        let stretched = frame.stretched()
        let binary = stretched.binarized(window: stretched.adaptiveWindow)
        let corners = binary.codeCorners()
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
