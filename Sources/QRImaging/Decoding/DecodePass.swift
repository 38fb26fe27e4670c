/// One way of looking at a picture before handing it to zbar. `PictureDecoder` tries them in
/// order, cheapest and most often useful first, and stops at the first that finds a code
/// (unless asked to find all).
public enum DecodePass: String, CaseIterable, Sendable {
    /// A reduced copy (a JPEG decoded at 1/2–1/8 scale in the DCT, to a long side of 600 px
    /// or more): only for pictures of 1200 px and up, where it usually finds the code for a
    /// fraction of the time.
    case reduced
    /// The reduced copy with light and dark swapped: light-on-dark codes big enough to read
    /// at reduced size, found before any full-size pass.
    case reducedInverted = "reduced-inverted"
    /// The reduced copy binarised locally: moiré, noise and shadows over a big code.
    case reducedBinarized = "reduced-binarized"
    /// The picture as it is.
    case full
    /// Global contrast stretch, for faded and grey-on-grey pictures.
    case stretched
    /// Local (adaptive) binarisation, for shadows and uneven light.
    case binarized
    /// Light and dark swapped, for light-on-dark codes.
    case inverted
    /// ×2 upscale, for codes with only a pixel or two a module.
    case enlarged
    /// ½ downscale, for large blurred, noisy or moiré-covered codes.
    case halved
    /// Unsharp mask, for soft focus.
    case sharpened
    /// Turned by 45°, where zbar's horizontal and vertical scan lines cross a skewed code badly.
    case rotated

    /// The order used unless told otherwise: by codes found per second spent on the benchmark
    /// corpus (BENCHMARKS.md, "Which passes earn their place"). The three passes on the reduced
    /// copy settle most pictures for a fraction of a full-size scan; `enlarged` finds least
    /// and costs most, so it comes last. `stretched` and `rotated` are left out: on the corpus
    /// every code they read was read by another pass (zbar's finder search copes with any
    /// rotation), and on a picture without a readable code they cost a third of the time.
    /// Ask for them with `--passes`.
    public static let standard: [DecodePass] = [
        .reduced, .reducedInverted, .reducedBinarized,
        .full, .halved, .binarized, .inverted, .sharpened, .enlarged,
    ]

    /// Long side from which `reduced` is worth trying, and the side it reduces to at least.
    /// Phone-size pictures (1200 px and up) are halved: most codes in them have modules of
    /// four pixels or more, and a ½-scale JPEG decode and scan cost about a quarter of full size.
    static let reducedFrom = 1200, reducedTo = 600

    /// The reduction `reduced` uses for a picture of this size, or nil when it is too small.
    static func reduction(width: Int, height: Int) -> Int? {
        let side = max(width, height)
        guard side >= reducedFrom else { return nil }
        return [8, 4, 2].first { side / $0 >= reducedTo }
    }

    /// Scan-line spacing zbar uses on this pass's image: every line on images at their own
    /// scale, every second on `enlarged` (its ×2 image already has the original's lines, so
    /// this keeps what helps, twice the samples a line, for half the cost) and on `rotated`
    /// (half again as many pixels as the picture, and only a last resort).
    var scanDensity: Int {
        switch self {
        case .enlarged, .rotated: 2
        default: 1
        }
    }

    /// Whether this pass would look at the same pixels as an earlier one in `passes`, for a
    /// picture of this size: `halved` repeats a `reduced` that reduced by 2.
    func repeatsEarlier(in passes: [DecodePass], width: Int, height: Int) -> Bool {
        guard self == .halved, let i = passes.firstIndex(of: .reduced), let mine = passes.firstIndex(of: self),
              i < mine else { return false }
        return Self.reduction(width: width, height: height) == 2
    }

    /// Whether this pass looks at the reduced copy (pictures of 1200 px and up) rather than
    /// the full-size picture.
    var onReducedCopy: Bool {
        switch self {
        case .reduced, .reducedInverted, .reducedBinarized: true
        default: false
        }
    }

    /// The working image for a pass on the reduced copy (`onReducedCopy`), made from `small`,
    /// with the map back to the full-size picture's pixels; nil for every other pass.
    func render(reducedCopy small: GrayImage, fullWidth: Int, fullHeight: Int) -> (GrayImage, PointMap)? {
        let map = PointMap.scaling(from: small, toWidth: fullWidth, toHeight: fullHeight)
        switch self {
        case .reduced: return (small, map)
        case .reducedInverted: return (small.stretched().inverted(), map)
        case .reducedBinarized:
            let s = small.stretched()
            return (s.binarized(window: s.adaptiveWindow), map)
        default: return nil
        }
    }

    /// The working image for this pass made from the full-size `base`, and the map back to
    /// `base`'s pixels; nil when the pass does not apply to an image of this size.
    func render(_ base: GrayImage) -> (GrayImage, PointMap)? {
        switch self {
        case .reduced, .reducedInverted, .reducedBinarized:
            guard let n = Self.reduction(width: base.width, height: base.height) else { return nil }
            return render(reducedCopy: base.reduced(by: n), fullWidth: base.width, fullHeight: base.height)
        case .full:
            return (base, .identity)
        case .stretched:
            // A picture that already spans (nearly) black to white would come back the same.
            guard let s = base.stretched(unlessWithin: 12) else { return nil }
            return (s, .identity)
        case .binarized:
            let s = base.stretched()
            return (s.binarized(window: s.adaptiveWindow), .identity)
        case .inverted:
            return (base.stretched().inverted(), .identity)
        case .enlarged:
            // Past 4 megapixels the modules are rarely too small, and ×4 pixels costs too much.
            guard base.width * base.height <= 4_000_000 else { return nil }
            return scaled(base.enlarged(), base)
        case .halved:
            guard min(base.width, base.height) >= 300 else { return nil }
            return scaled(base.reduced(by: 2), base)
        case .sharpened:
            return (base.sharpened(), .identity)
        case .rotated:
            // A 45° turn's bounding box holds (w + h)²/2 pixels: about twice a photo's, but
            // thousands of times a long thin strip's. A 576-byte JPEG declaring 63512×240 (found
            // by the picture fuzz harness) asked for 2 gigapixels here.
            let side = base.width + base.height
            guard side * side / 2 <= 3 * base.width * base.height else { return nil }
            return base.rotated(degrees: 45)
        }
    }

    private func scaled(_ image: GrayImage, _ base: GrayImage) -> (GrayImage, PointMap) {
        (image, .scaling(from: image, toWidth: base.width, toHeight: base.height))
    }
}
