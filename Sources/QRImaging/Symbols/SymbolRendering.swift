/// Text renderings of a symbol: SVG for print shops, Unicode half blocks for terminals.
extension QRSymbol {
    /// A standalone SVG: one path of unit squares merged into horizontal runs, scaled so a
    /// module is `moduleSize` pixels, with a light quiet zone of `margin` modules.
    public func svg(moduleSize: Int, margin: Int) -> String {
        let side = width + 2 * margin
        var path = ""
        path.reserveCapacity(width * width)
        for y in 0..<width {
            var x = 0
            while x < width {
                guard self[x, y] else { x += 1; continue }
                let start = x
                while x < width, self[x, y] { x += 1 }
                path += "M\(start + margin) \(y + margin)h\(x - start)v1h-\(x - start)z"
            }
        }
        let pixels = side * moduleSize
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
        <rect width="\(side)" height="\(side)" fill="#fff"/>
        <path fill="#000" d="\(path)"/>
        </svg>

        """
    }

    /// Two rows of modules per line of text with `▀▄█` and spaces, dark on a light terminal
    /// background as `qrencode -t UTF8` draws it (which reads on dark terminals too, since the
    /// blocks paint the light modules).
    public func terminalText(margin: Int) -> String {
        let side = width + 2 * margin
        func light(_ x: Int, _ y: Int) -> Bool {
            let (mx, my) = (x - margin, y - margin)
            guard mx >= 0, my >= 0, mx < width, my < width else { return true }
            return !self[mx, my]
        }
        var out = ""
        for y in stride(from: 0, to: side, by: 2) {
            for x in 0..<side {
                let top = light(x, y), bottom = y + 1 < side ? light(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): out += "█"
                case (true, false): out += "▀"
                case (false, true): out += "▄"
                case (false, false): out += " "
                }
            }
            out += "\n"
        }
        return out
    }
}
