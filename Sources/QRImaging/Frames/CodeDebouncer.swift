/// Says whether a code seen in a frame should be reported: each distinct code at most once per
/// window. The window runs from the last report, so a code held in front of the camera is
/// reported again every `window` seconds, never on every frame. Times are the stream's own
/// (``CameraFrame/time``), so a clip read faster than real time debounces as it was filmed.
///
/// ```swift
/// var debouncer = CodeDebouncer(window: 2)
/// debouncer.shouldReport("GQ1.DEMO.A1.…", at: 0.0)   // true
/// debouncer.shouldReport("GQ1.DEMO.A1.…", at: 1.5)   // false
/// debouncer.shouldReport("GQ1.DEMO.A1.…", at: 2.0)   // true
/// ```
public struct CodeDebouncer: Sendable {
    /// Seconds during which a reported code is not reported again.
    public let window: Double
    private var lastReport: [String: Double] = [:]

    public init(window: Double) {
        self.window = window
    }

    /// True, and the window restarts, when `code` was not reported in the last `window`
    /// seconds before `time`.
    public mutating func shouldReport(_ code: String, at time: Double) -> Bool {
        if let last = lastReport[code], time - last < window, time >= last { return false }
        // Codes whose window has passed are forgotten, so a long session's memory stays small.
        if lastReport.count > 256 { lastReport = lastReport.filter { time - $0.value < window } }
        lastReport[code] = time
        return true
    }
}
