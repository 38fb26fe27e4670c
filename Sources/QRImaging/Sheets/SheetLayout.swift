/// Paper the sheets are printed on, in millimetres.
public enum PaperSize: String, CaseIterable, Sendable {
    case a4, letter

    public var width: Double { self == .a4 ? 210 : 215.9 }
    public var height: Double { self == .a4 ? 297 : 279.4 }
}

/// How cache codes are arranged on a page.
public enum SheetLayout: String, CaseIterable, Sendable {
    /// One cache per page, the code as large as the page allows: for a tree or a noticeboard.
    case poster
    /// Six cards (2×3) per page with cut lines, to laminate and hide.
    case cards
    /// Sticker sheets: Avery L7160 on A4 (3×7, 63.5×38.1 mm), Avery 5163 on Letter (2×5, 4×2 in).
    case labels

    /// The name of the sticker sheet the label grid matches, for help text and README.
    public static func labelSheetName(_ paper: PaperSize) -> String {
        paper == .a4 ? "Avery L7160 (21 labels, 63.5×38.1 mm)" : "Avery 5163 (10 labels, 4×2 in)"
    }
}

/// Where one cache goes on a page, in millimetres from the top-left corner.
struct Slot: Equatable {
    var x, y, width, height: Double
}

/// The grid of slots for a layout on a paper size, and how the slot's content is arranged.
struct PageGrid {
    let slots: [Slot]
    /// Crop marks in the margins and dashed cut lines; sticker sheets come pre-cut.
    let cutMarks: Bool
    /// Code above the text (poster, cards) or beside it (labels).
    let codeBesideText: Bool
    /// Padding inside a slot, millimetres.
    let padding: Double

    init(layout: SheetLayout, paper: PaperSize) {
        switch layout {
        case .poster:
            slots = [Slot(x: 15, y: 15, width: paper.width - 30, height: paper.height - 30)]
            cutMarks = true; codeBesideText = false; padding = 10
        case .cards:
            let margin = 12.0
            let w = (paper.width - 2 * margin) / 2, h = (paper.height - 2 * margin) / 3
            slots = (0..<3).flatMap { row in
                (0..<2).map { col in Slot(x: margin + Double(col) * w, y: margin + Double(row) * h, width: w, height: h) }
            }
            cutMarks = true; codeBesideText = false; padding = 5
        case .labels:
            // Published label geometry: left and top margins, pitch between label origins.
            let (cols, rows, w, h, left, top, pitchX) = paper == .a4
                ? (3, 7, 63.5, 38.1, 7.25, 15.15, 66.04)
                : (2, 5, 101.6, 50.8, 3.97, 12.7, 106.36)
            slots = (0..<rows).flatMap { row in
                (0..<cols).map { col in Slot(x: left + Double(col) * pitchX, y: top + Double(row) * h, width: w, height: h) }
            }
            cutMarks = false; codeBesideText = true; padding = 1
        }
    }
}
