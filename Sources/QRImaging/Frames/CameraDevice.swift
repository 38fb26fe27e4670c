import CZBar
import Foundation

/// A webcam through zbar's video API (V4L2 on Linux), owned: opened on init, closed on deinit.
/// Frames come out as grey images, converted by zbar from whatever the camera sends.
///
/// ```swift
/// let camera = try CameraDevice(path: "/dev/video0")
/// while let frame = try camera.nextFrame() { decode(frame.image) }
/// ```
public final class CameraDevice: FrameSource {
    public let path: String
    private let video: OpaquePointer
    private let started = Date()
    private var index = 0

    /// Opens the device and starts streaming; fails with one line a user can act on.
    public init(path: String) throws(CameraError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(path, String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFCHR else { throw .cannotOpen(path, "not a video device") }
        guard let video = zbar_video_create() else { throw .cannotOpen(path, "zbar could not make a video object") }
        self.path = path
        self.video = video
        // libv4l2 writes its own complaints to stderr while zbar opens the device; the user gets
        // one line, made from zbar's error string, instead.
        let opened = Self.withStderrSilenced { zbar_video_open(video, path) }
        guard opened == 0 else { throw .cannotOpen(path, Self.reason(video)) }
        guard zbar_negotiate_format(video, nil) == 0 else { throw .cannotOpen(path, Self.reason(video)) }
        guard zbar_video_enable(video, 1) == 0 else { throw .cannotOpen(path, Self.reason(video)) }
    }

    deinit {
        zbar_video_enable(video, 0)
        zbar_video_destroy(video)
    }

    /// The next frame from the camera, converted to grey; times are seconds since opening.
    public func nextFrame() throws(CameraError) -> CameraFrame? {
        guard let raw = zbar_video_next_image(video) else { throw .streamFailed(path, Self.reason(video)) }
        defer { zbar_image_destroy(raw) }
        guard let grey = zbar_image_convert(raw, 0x3030_3859) else {   // fourcc "Y800"
            throw .streamFailed(path, "cannot convert the camera's frames to grey")
        }
        defer { zbar_image_destroy(grey) }
        let width = Int(zbar_image_get_width(grey)), height = Int(zbar_image_get_height(grey))
        guard width > 0, height > 0, Int(zbar_image_get_data_length(grey)) >= width * height,
              let data = zbar_image_get_data(grey) else { throw .streamFailed(path, "empty frame") }
        let pixels = Array(UnsafeRawBufferPointer(start: data, count: width * height))
        defer { index += 1 }
        return CameraFrame(image: GrayImage(width: width, height: height, pixels: pixels), index: index,
                           time: Date().timeIntervalSince(started))
    }

    private static func withStderrSilenced<T>(_ body: () -> T) -> T {
        let saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return body()
    }

    private static func reason(_ video: OpaquePointer) -> String {
        guard let text = zbar_video_error_string(video, 0) else { return "zbar video error" }
        // zbar's text reads "ERROR: zbar video in _zbar_video_open():\n    system error: …"; keep the last part.
        let message = String(cString: text).split(separator: "\n").last.map(String.init) ?? ""
        return message.replacingOccurrences(of: "system error: ", with: "").trimmingCharacters(in: .whitespaces)
    }
}

/// Why a camera could not be used.
public enum CameraError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(String, String)
    case streamFailed(String, String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let why): "\(path): cannot open camera: \(why)"
        case .streamFailed(let path, let why): "\(path): camera stopped: \(why)"
        }
    }
}
