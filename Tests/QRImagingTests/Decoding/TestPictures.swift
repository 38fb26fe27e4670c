import Foundation
@testable import QRImaging

/// Pictures made in the tests: real QR symbols drawn into pixels, then spoiled the way photos are.
enum TestPictures {
    static let payload = "GQ1.DEMO.A1.7QK2M4TZ9XB3RW5N"

    static func code(_ text: String = payload, moduleSize: Int = 4, margin: Int = 4) -> GrayImage {
        try! QRSymbol(encoding: text, level: .M).image(moduleSize: moduleSize, margin: margin)
    }

    /// `image` pasted at (x, y) on a canvas of `fill`.
    static func canvas(_ image: GrayImage, width: Int, height: Int, x: Int, y: Int, fill: UInt8 = 200) -> GrayImage {
        var out = GrayImage(width: width, height: height, fill: fill)
        for row in 0..<image.height where row + y < height {
            for col in 0..<image.width where col + x < width { out[col + x, row + y] = image[col, row] }
        }
        return out
    }

    /// Every pixel through `f(x, y, value)`.
    static func map(_ image: GrayImage, _ f: (Int, Int, Int) -> Int) -> GrayImage {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width { out[x, y] = UInt8(clamping: f(x, y, Int(image[x, y]))) }
        }
        return out
    }

    /// Box blur of half-size r, repeated `times` (close to a Gaussian).
    static func blurred(_ image: GrayImage, r: Int, times: Int = 2) -> GrayImage {
        var img = image
        for _ in 0..<times {
            let table = IntegralImage(img)
            img = table.withSums { s in map(img) { x, y, _ in table.mean(x: x, y: y, r: r, in: s) } }
        }
        return img
    }

    /// A repeatable pseudo-random sequence (tests must not depend on a global generator).
    struct Noise {
        var state: UInt64
        mutating func next(_ range: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(range))
        }
    }
}
