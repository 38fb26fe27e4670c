/// One picture from a camera or a clip: its grey (luma) pixels, its number and when it was
/// taken, in seconds from the start of the stream.
public struct CameraFrame: Sendable {
    /// The frame's luma plane: what zbar reads.
    public let image: GrayImage
    /// 0 for the first frame.
    public let index: Int
    /// Seconds since the first frame: from the stream's frame rate for a clip, from the clock
    /// for a live camera.
    public let time: Double

    public init(image: GrayImage, index: Int, time: Double) {
        self.image = image
        self.index = index
        self.time = time
    }
}

/// Somewhere frames come from, one at a time: a Y4M stream (``Y4MReader``) or a camera
/// (``CameraDevice``).
///
/// ```swift
/// var source: any FrameSource = try Y4MReader(fileDescriptor: STDIN_FILENO)
/// while let frame = try source.nextFrame() { print(frame.index, frame.time) }
/// ```
public protocol FrameSource {
    /// The next frame, or nil at the end of the stream.
    mutating func nextFrame() throws -> CameraFrame?
}
