/// An 8-bit grey image, row-major, one byte a pixel (0 black, 255 white): what zbar reads and
/// what codes are drawn into.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt8 = 255) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

extension QRSymbol {
    /// The symbol drawn `moduleSize` pixels a module with `margin` light modules around it.
    public func image(moduleSize: Int, margin: Int) -> GrayImage {
        let side = (width + 2 * margin) * moduleSize
        var pixels = [UInt8](repeating: 255, count: side * side)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for my in 0..<width {
                let top = (my + margin) * moduleSize
                // Draw one pixel row of the module row, then copy it down the module's height.
                let firstRow = top * side
                for mx in 0..<width where self[mx, my] {
                    let left = firstRow + (mx + margin) * moduleSize
                    for i in 0..<moduleSize { buffer[left + i] = 0 }
                }
                for r in 1..<max(moduleSize, 1) {
                    let dst = firstRow + r * side
                    for i in 0..<side { buffer[dst + i] = buffer[firstRow + i] }
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }
}
