import CQREncode
import Foundation

/// Error-correction level of a QR symbol: how much of it may be lost and still read.
public enum CorrectionLevel: String, CaseIterable, Sendable {
    case L, M, Q, H

    var cValue: QRecLevel {
        switch self {
        case .L: QR_ECLEVEL_L
        case .M: QR_ECLEVEL_M
        case .Q: QR_ECLEVEL_Q
        case .H: QR_ECLEVEL_H
        }
    }
}

/// Why a payload could not become a QR symbol.
public enum QREncodingError: Error, Equatable, CustomStringConvertible {
    case tooLong(characters: Int)
    case failed(errno: Int32)

    public var description: String {
        switch self {
        case .tooLong(let n): "\(n) characters is more than a QR code can hold at this error-correction level"
        case .failed(let e): "could not make a QR code: \(String(cString: strerror(e)))"
        }
    }
}

/// A QR symbol as a square of dark and light modules, made by libqrencode.
///
/// ```swift
/// let symbol = try QRSymbol(encoding: "GQ1.DEMO.A1.K3J5M2QX7P4RT6WA", level: .M)
/// symbol.version      // 2
/// symbol[0, 0]        // true: the finder pattern's corner is dark
/// ```
public struct QRSymbol: Sendable, Equatable {
    /// QR version 1…40; the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    public let width: Int
    /// Row-major, `true` is dark.
    public let modules: [Bool]

    /// Encodes `payload`, letting libqrencode pick the smallest version and the densest mode
    /// for each run of characters (alphanumeric for codes, bytes for anything else).
    public init(encoding payload: String, level: CorrectionLevel = .M) throws(QREncodingError) {
        errno = 0
        guard let raw = QRcode_encodeString(payload, 0, level.cValue, QR_MODE_8, 1) else {
            throw errno == ERANGE ? .tooLong(characters: payload.count) : .failed(errno: errno)
        }
        // libqrencode's symbol is copied out and freed here: nothing above sees its pointer.
        defer { QRcode_free(raw) }
        let width = Int(raw.pointee.width)
        let data = UnsafeBufferPointer(start: raw.pointee.data, count: width * width)
        self.version = Int(raw.pointee.version)
        self.width = width
        self.modules = data.map { $0 & 1 == 1 }
    }

    public init(width: Int, modules: [Bool], version: Int) {
        self.width = width
        self.modules = modules
        self.version = version
    }

    public subscript(x: Int, y: Int) -> Bool { modules[y * width + x] }

    /// The largest number of QR-alphanumeric characters a version holds at a level (ISO 18004
    /// table 7), used to promise that codes stay small.
    public static func alphanumericCapacity(version: Int, level: CorrectionLevel) -> Int? {
        let table: [CorrectionLevel: [Int]] = [
            .L: [25, 47, 77, 114, 154, 195, 224, 279, 335, 395],
            .M: [20, 38, 61, 90, 122, 154, 178, 221, 262, 311],
            .Q: [16, 29, 47, 67, 87, 108, 125, 157, 189, 221],
            .H: [10, 20, 35, 50, 64, 84, 93, 122, 143, 174],
        ]
        guard (1...10).contains(version) else { return nil }
        return table[level]?[version - 1]
    }
}
