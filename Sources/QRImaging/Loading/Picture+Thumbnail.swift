extension Picture {
    /// The upright picture at most `longSide` pixels on its long side: a JPEG is decoded at
    /// the largest DCT reduction that keeps it at least that size, then averaged down by a
    /// whole factor.
    ///
    /// ```swift
    /// let small = try Picture(data: jpeg).thumbnail(longSide: 640)   // e.g. 640×480 from 4032×3024
    /// ```
    public func thumbnail(longSide: Int) throws(PictureError) -> GrayImage {
        precondition(longSide > 0, "a thumbnail has a size")
        let long = max(width, height)
        let reduction = [8, 4, 2, 1].first { long / $0 >= longSide } ?? 1
        let image = try image(reduction: reduction)
        let rest = (max(image.width, image.height) + longSide - 1) / longSide
        return image.reduced(by: rest)
    }
}
