/// The image formats GeoQR reads, told apart by their first bytes, never by the file name.
public enum PictureFormat: String, Sendable, Equatable {
    case png, jpeg, heic

    /// The format the bytes start with, or nil.
    public init?<Bytes: Collection<UInt8>>(sniffing bytes: Bytes) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            // ISO base media: HEIC, HEIF and AVIF brands all go to libheif, which knows them.
            self = .heic
        } else {
            return nil
        }
    }
}
