import Foundation

/// Buffered reads from a file descriptor (a file, a pipe, standard input): lines of bounded
/// length and runs of exact size, for stream formats read from their start to their end.
struct StreamBytes {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0

    init(fileDescriptor: Int32) {
        fd = fileDescriptor
    }

    /// Bytes up to (not including) the next `\n`; nil at the very end of the stream. Throws
    /// when the line is longer than `limit` or the stream ends inside it.
    mutating func line(limit: Int) throws(StreamError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if start == end, try fill() == 0 {
                if line.isEmpty { return nil }
                throw .truncated
            }
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                guard line.count <= limit else { throw .lineTooLong(limit) }
                return line
            }
            line += buffer[start..<end]
            start = end
            guard line.count <= limit else { throw .lineTooLong(limit) }
        }
    }

    /// Exactly `count` bytes into `target` (nil: read and drop them).
    mutating func read(_ count: Int, into target: UnsafeMutableRawBufferPointer?) throws(StreamError) {
        var done = 0
        while done < count {
            if start == end, try fill() == 0 { throw .truncated }
            let n = min(end - start, count - done)
            if let target {
                buffer.withUnsafeBytes { target.baseAddress!.advanced(by: done).copyMemory(from: $0.baseAddress!.advanced(by: start), byteCount: n) }
            }
            start += n
            done += n
        }
    }

    private mutating func fill() throws(StreamError) -> Int {
        start = 0
        end = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            end = n
            return n
        }
    }
}

/// Why a stream could not be read further.
enum StreamError: Error {
    case truncated
    case lineTooLong(Int)
    case unreadable(String)
}
