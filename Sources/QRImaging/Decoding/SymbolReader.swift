import CZBar
import Foundation

/// A code found in an image: its text, its raw bytes, and where its corners are.
public struct DecodedSymbol: Sendable, Equatable {
    /// The payload as text: in the character set its ECI segment names (zbar converts those
    /// to UTF-8), else as ``PayloadText`` reads undeclared bytes (UTF-8, Shift-JIS, ISO-8859-1).
    public var text: String { PayloadText.text(of: raw) }
    /// The payload's bytes as zbar gives them: as written, or UTF-8 for a payload in another
    /// declared character set.
    public let raw: [UInt8]
    /// zbar's symbology name, e.g. `QR-Code`.
    public let symbology: String
    /// Outline points in image pixels, as zbar reports them (four for QR codes).
    public let corners: [(x: Int, y: Int)]

    public static func == (a: DecodedSymbol, b: DecodedSymbol) -> Bool {
        a.raw == b.raw && a.symbology == b.symbology
            && a.corners.map(\.x) == b.corners.map(\.x) && a.corners.map(\.y) == b.corners.map(\.y)
    }
}

/// Barcode symbologies zbar can look for. QR only by default: fewer false reads from the
/// linear decoders on textured surfaces, and faster.
public enum Symbology: String, CaseIterable, Sendable {
    case qr, ean13, ean8, upca, upce, code128, code39, code93, i25, codabar, databar, pdf417

    var cValue: zbar_symbol_type_t {
        switch self {
        case .qr: ZBAR_QRCODE
        case .ean13: ZBAR_EAN13
        case .ean8: ZBAR_EAN8
        case .upca: ZBAR_UPCA
        case .upce: ZBAR_UPCE
        case .code128: ZBAR_CODE128
        case .code39: ZBAR_CODE39
        case .code93: ZBAR_CODE93
        case .i25: ZBAR_I25
        case .codabar: ZBAR_CODABAR
        case .databar: ZBAR_DATABAR
        case .pdf417: ZBAR_PDF417
        }
    }
}

/// zbar's image scanner, owned: one per task, since zbar scanners keep per-scan state.
///
/// ```swift
/// let reader = SymbolReader()
/// for symbol in reader.read(image) { print(symbol.text) }
/// ```
public final class SymbolReader {
    private let scanner: OpaquePointer

    public init(symbologies: Set<Symbology> = [.qr]) {
        scanner = zbar_image_scanner_create()
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for s in symbologies {
            zbar_image_scanner_set_config(scanner, s.cValue, ZBAR_CFG_ENABLE, 1)
        }
        // Raw bytes, not zbar's guess at a character set (which is iconv's and leaves out
        // what it cannot convert): `DecodedSymbol.text` reads them (``PayloadText``). A payload
        // that declares its character set (ECI) zbar still turns into UTF-8.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    private var density = 1

    /// Every symbol zbar finds in the image, in zbar's order, scanning every `density`-th row
    /// and column (1: all of them, zbar's default).
    public func read(_ image: GrayImage, density: Int = 1) -> [DecodedSymbol] {
        guard image.width > 0, image.height > 0 else { return [] }
        if density != self.density {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(density))
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
            self.density = density
        }
        let zimage = ZBarImage(image)
        return image.pixels.withUnsafeBytes { bytes in
            zimage.attach(bytes)
            defer { zimage.detach() }
            guard zbar_scan_image(scanner, zimage.pointer) > 0 else { return [] }
            return zimage.symbols()
        }
    }
}

/// A zbar image header over pixels the caller keeps alive; owns and frees the header.
private final class ZBarImage {
    let pointer: OpaquePointer
    private let width: UInt32, height: UInt32

    init(_ image: GrayImage) {
        pointer = zbar_image_create()
        width = UInt32(image.width)
        height = UInt32(image.height)
        zbar_image_set_format(pointer, 0x3030_3859)   // fourcc "Y800": 8-bit grey
        zbar_image_set_size(pointer, width, height)
    }

    deinit { zbar_image_destroy(pointer) }

    func attach(_ bytes: UnsafeRawBufferPointer) {
        zbar_image_set_data(pointer, bytes.baseAddress, UInt(bytes.count), nil)
    }

    /// Forget the borrowed pixels so zbar never touches them after the caller's scope ends.
    func detach() { zbar_image_set_data(pointer, nil, 0, nil) }

    func symbols() -> [DecodedSymbol] {
        var found: [DecodedSymbol] = []
        var symbol = zbar_image_first_symbol(pointer)
        while let s = symbol {
            let length = Int(zbar_symbol_get_data_length(s))
            let raw = zbar_symbol_get_data(s).map { ptr in
                ptr.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
            } ?? []
            let corners = (0..<zbar_symbol_get_loc_size(s)).map {
                (x: Int(zbar_symbol_get_loc_x(s, $0)), y: Int(zbar_symbol_get_loc_y(s, $0)))
            }
            let name = String(cString: zbar_get_symbol_name(zbar_symbol_get_type(s)))
            found.append(DecodedSymbol(raw: raw, symbology: name, corners: corners))
            symbol = zbar_symbol_next(s)
        }
        return found
    }
}
