/// Draws one cache's card into a slot: the code with its quiet zone, then name, id and trail,
/// coordinates and, on request, the hint. All sizes in millimetres.
struct CardPainter {
    let cr: CairoContext
    let grid: PageGrid
    let withHints: Bool

    /// QR's standard quiet zone: four light modules all round.
    static let quietModules = 4
    /// 1 pt = 0.3528 mm; font sizes below are in points, converted.
    static let mmPerPoint = 25.4 / 72

    /// Modules and code corners sit on a 1/150 inch grid, so that a 150, 300 or 600 dpi printer
    /// or rasteriser gives every module the same whole number of dots. Without it, zbar misses
    /// some codes at 150 dpi where modules alternate between 8 and 9 pixels.
    /// When the coarse grid would shrink a code under 25 mm, a 1/300 inch grid is used instead.
    static let grid = 25.4 / 150

    /// The largest module on the grid not above `module`, keeping the symbol at least the
    /// minimum width, and the grid chosen (positions are snapped to the same grid).
    static func snappedModule(_ module: Double, modules: Int) -> (size: Double, grid: Double) {
        for g in [grid, grid / 2] {
            let size = (module / g).rounded(.down) * g
            if size * Double(modules) >= Sheet.minimumCodeWidth { return (size, g) }
        }
        return (module, 0)
    }

    static func snap(_ v: Double, to g: Double) -> Double { g > 0 ? (v / g).rounded() * g : v }

    /// Draws the card and returns the printed width of the symbol (without quiet zone).
    func draw(_ entry: SheetEntry, _ symbol: QRSymbol, in slot: Slot) -> Double {
        if grid.cutMarks {
            cr.rectangleOutline(x: slot.x, y: slot.y, width: slot.width, height: slot.height,
                                lineWidth: 0.15, gray: 0.7, dash: 1.5)
        }
        let inner = Slot(x: slot.x + grid.padding, y: slot.y + grid.padding,
                         width: slot.width - 2 * grid.padding, height: slot.height - 2 * grid.padding)
        return grid.codeBesideText ? drawBeside(entry, symbol, inner) : drawAbove(entry, symbol, inner)
    }

    private struct Line {
        var text: String
        var bold = false
        var gray = 0.0
        var wraps = false
    }

    /// The words on a card; narrow labels give id, trail and each axis a line of their own.
    private func lines(for entry: SheetEntry, narrow: Bool) -> [Line] {
        var result = [Line(text: entry.name, bold: true, wraps: narrow)]
        if narrow {
            // The typed code starts with the cache id, so it stands in for the id's line.
            result.append(Line(text: entry.typedCode.map { "Type: \($0)" } ?? "Cache \(entry.cacheID)", gray: 0.2))
            if let trail = entry.trail { result.append(Line(text: trail, gray: 0.2)) }
            result.append(Line(text: entry.latitude))
            result.append(Line(text: entry.longitude))
        } else {
            var idLine = "Cache \(entry.cacheID)"
            if let trail = entry.trail { idLine += "  ·  Trail: \(trail)" }
            result.append(Line(text: idLine, gray: 0.2))
            if let typed = entry.typedCode { result.append(Line(text: "Can't scan? Type \(typed)")) }
            result.append(Line(text: "\(entry.latitude) \(entry.longitude)"))
        }
        if withHints, let hint = entry.hint, !hint.isEmpty {
            result.append(Line(text: "Hint: " + hint, gray: 0.35, wraps: true))
        }
        return result
    }

    /// Poster and card: code centred at the top, text lines centred below it.
    private func drawAbove(_ entry: SheetEntry, _ symbol: QRSymbol, _ box: Slot) -> Double {
        let poster = box.height > 150
        let nameSize = poster ? 28.0 : 13.0, bodySize = poster ? 16.0 : 9.0
        let hintLines = withHints && entry.hint?.isEmpty == false ? (poster ? 3 : 2) : 0
        let bodyLines = 2 + hintLines + (entry.typedCode == nil ? 0 : 1)
        let textHeight = (nameSize * 1.3 + bodySize * 1.3 * Double(bodyLines)) * Self.mmPerPoint + 2
        let side = min(box.width, box.height - textHeight)
        let (module, g) = Self.snappedModule(side / Double(symbol.width + 2 * Self.quietModules), modules: symbol.width)
        let codeX = Self.snap(box.x + (box.width - side) / 2 + Double(Self.quietModules) * module, to: g)
        let codeY = Self.snap(box.y + Double(Self.quietModules) * module, to: g)
        cr.drawSymbol(symbol, x: codeX, y: codeY, moduleSize: module)

        var baseline = box.y + side + nameSize * Self.mmPerPoint
        for line in lines(for: entry, narrow: false) {
            let size = line.bold ? nameSize : bodySize
            let texts = line.wraps ? wrap(line.text, width: box.width, points: size, maxLines: hintLines)
                                   : [fit(line.text, width: box.width, points: size, bold: line.bold)]
            for text in texts {
                cr.font(size: size * Self.mmPerPoint, bold: line.bold)
                let w = cr.textWidth(text)
                cr.text(text, x: box.x + (box.width - w) / 2, y: baseline, gray: line.gray)
                baseline += size * 1.3 * Self.mmPerPoint
            }
        }
        return module * Double(symbol.width)
    }

    /// Label: code on the left filling the height, text to its right.
    private func drawBeside(_ entry: SheetEntry, _ symbol: QRSymbol, _ box: Slot) -> Double {
        let side = box.height
        let (module, g) = Self.snappedModule(side / Double(symbol.width + 2 * Self.quietModules), modules: symbol.width)
        let quiet = Double(Self.quietModules) * module
        cr.drawSymbol(symbol, x: Self.snap(box.x + quiet, to: g),
                      y: Self.snap(box.y + (side - module * Double(symbol.width)) / 2, to: g), moduleSize: module)
        let textX = box.x + side + 0.5
        let textWidth = box.x + box.width - textX - 1
        let nameSize = 8.5, bodySize = 6.5
        var baseline = box.y + quiet + nameSize * Self.mmPerPoint
        let bottom = box.y + box.height - quiet
        for line in lines(for: entry, narrow: true) {
            let size = line.bold ? nameSize : bodySize
            let texts = line.wraps ? wrap(line.text, width: textWidth, points: size, maxLines: 2, bold: line.bold)
                                   : [fit(line.text, width: textWidth, points: size, bold: line.bold)]
            for text in texts where baseline <= bottom {
                cr.font(size: size * Self.mmPerPoint, bold: line.bold)
                cr.text(text, x: textX, y: baseline, gray: line.gray)
                baseline += size * 1.25 * Self.mmPerPoint
            }
        }
        return module * Double(symbol.width)
    }

    /// Crop marks in the page margins at every cut line, as a print shop expects.
    func drawCropMarks(paper: PaperSize, slots: [Slot]) {
        let xs = Set(slots.flatMap { [$0.x, $0.x + $0.width] }), ys = Set(slots.flatMap { [$0.y, $0.y + $0.height] })
        let top = slots.map(\.y).min() ?? 0, bottom = slots.map { $0.y + $0.height }.max() ?? paper.height
        let left = slots.map(\.x).min() ?? 0, right = slots.map { $0.x + $0.width }.max() ?? paper.width
        let gap = 2.0, length = 5.0
        for x in xs {
            cr.line(from: (x, top - gap - length), to: (x, top - gap), width: 0.2, gray: 0)
            cr.line(from: (x, bottom + gap), to: (x, bottom + gap + length), width: 0.2, gray: 0)
        }
        for y in ys {
            cr.line(from: (left - gap - length, y), to: (left - gap, y), width: 0.2, gray: 0)
            cr.line(from: (right + gap, y), to: (right + gap + length, y), width: 0.2, gray: 0)
        }
    }

    func drawFooter(_ text: String, paper: PaperSize) {
        cr.font(size: 6.5 * Self.mmPerPoint, bold: false)
        let w = cr.textWidth(text)
        cr.text(text, x: (paper.width - w) / 2, y: paper.height - 4, gray: 0.45)
    }

    /// The text, shortened with an ellipsis if it is wider than `width`.
    private func fit(_ text: String, width: Double, points: Double, bold: Bool) -> String {
        cr.font(size: points * Self.mmPerPoint, bold: bold)
        guard cr.textWidth(text) > width else { return text }
        var cut = text
        while !cut.isEmpty, cr.textWidth(cut + "…") > width { cut.removeLast() }
        return cut + "…"
    }

    /// Word-wraps into at most `maxLines`, the last shortened with an ellipsis if needed.
    private func wrap(_ text: String, width: Double, points: Double, maxLines: Int, bold: Bool = false) -> [String] {
        cr.font(size: points * Self.mmPerPoint, bold: bold)
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if cr.textWidth(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > maxLines else { return lines.map { fit($0, width: width, points: points, bold: bold) } }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = fit(kept[maxLines - 1] + " " + lines[maxLines], width: width, points: points, bold: bold)
        if !kept[maxLines - 1].hasSuffix("…") { kept[maxLines - 1] += "…" }
        return kept.map { fit($0, width: width, points: points, bold: bold) }
    }
}
