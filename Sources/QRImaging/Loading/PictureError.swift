import Foundation

/// Why a picture could not be turned into pixels, in words a user can act on.
public enum PictureError: Error, Equatable, CustomStringConvertible {
    /// Zero bytes.
    case empty
    /// Not PNG, JPEG or HEIC by its first bytes.
    case unknownFormat
    /// Larger on disk than the limit allows.
    case tooLarge(bytes: Int, limit: Int)
    /// The header declares more pixels than the limit allows (refused before any pixel memory).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Costlier to decode than any phone's picture of its format (a PNG of 50 MP of white is
    /// 64 KB): refused from the header, before any pixel is decoded.
    case tooCostly(format: PictureFormat, width: Int, height: Int, limit: Int)
    /// The library could not read it (truncated, corrupt, unsupported variant).
    case unreadable(format: PictureFormat, reason: String)

    public var description: String {
        switch self {
        case .empty: "empty file"
        case .unknownFormat: "not a PNG, JPEG or HEIC image"
        case .tooLarge(let bytes, let limit):
            "file is \(bytes / 1_000_000) MB, more than the \(limit / 1_000_000) MB limit"
        case .tooManyPixels(let w, let h, let limit):
            "image is \(w)×\(h) (\(w * h / 1_000_000) megapixels), more than the \(limit / 1_000_000)-megapixel limit"
        case .tooCostly(let format, let w, let h, let limit):
            "a \(format.rawValue.uppercased()) of \(w)×\(h) (\(w * h / 1_000_000) megapixels) is more than the "
                + "\(limit / 1_000_000)-megapixel limit for \(format.rawValue.uppercased()) pictures; send the photo as the phone's camera took it (JPEG or HEIC)"
        case .unreadable(let format, let reason): "not a readable \(format.rawValue.uppercased()) (\(Self.oneLine(reason)))"
        }
    }

    /// Library messages may end in or hold line breaks (libheif's do); a report is one line.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
