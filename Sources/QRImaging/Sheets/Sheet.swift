import Foundation

/// One cache as it is printed: its code and the words beside it.
public struct SheetEntry: Sendable {
    public var payload: String
    public var cacheID: String
    public var name: String
    /// Coordinates as printed, normally the geocaching form (`N 40° 37.818'`, `W 008° 39.450'`).
    public var latitude: String
    public var longitude: String
    /// "North loop (2 of 3)", when the cache is on a trail.
    public var trail: String?
    public var hint: String?
    /// The short code a player types when their phone cannot scan (`A1-7KQ2-M9XD`).
    public var typedCode: String?

    public init(payload: String, cacheID: String, name: String, latitude: String, longitude: String,
                trail: String? = nil, hint: String? = nil, typedCode: String? = nil) {
        self.typedCode = typedCode
        self.payload = payload
        self.cacheID = cacheID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.trail = trail
        self.hint = hint
    }
}

/// What to print and how.
public struct SheetOptions: Sendable {
    public var paper: PaperSize = .a4
    public var layout: SheetLayout = .cards
    public var withHints = false
    public var level: CorrectionLevel = .M
    /// Title on every page's footer and in the PDF's metadata.
    public var title = "GeoQR"

    public init(paper: PaperSize = .a4, layout: SheetLayout = .cards, withHints: Bool = false,
                level: CorrectionLevel = .M, title: String = "GeoQR") {
        self.paper = paper
        self.layout = layout
        self.withHints = withHints
        self.level = level
        self.title = title
    }
}

/// Why a sheet could not be made.
public enum SheetError: Error, CustomStringConvertible {
    case encoding(cacheID: String, QREncodingError)
    case codeTooSmall(cacheID: String, millimetres: Double, module: Double)
    case cairo(CairoError)
    case png(PNGError)

    public var description: String {
        switch self {
        case .encoding(let id, let e): "cache \(id): \(e)"
        case .codeTooSmall(let id, let mm, let module):
            "cache \(id): its code would print \(String(format: "%.1f", mm)) mm wide with \(String(format: "%.2f", module)) mm modules; "
                + "phones need at least 25 mm and 0.5 mm modules: use a larger layout, a lower --level or a shorter --base-url"
        case .cairo(let e): e.description
        case .png(let e): e.description
        }
    }
}

/// Printable sheets of cache codes, drawn with Cairo.
///
/// ```swift
/// let pdf = try Sheet(entries: entries, options: SheetOptions(layout: .cards)).pdf()
/// let pages = try Sheet(entries: entries, options: options).pngPages(dpi: 300)
/// ```
public struct Sheet: Sendable {
    /// Codes narrower than this are hard to read with a phone at arm's length.
    public static let minimumCodeWidth = 25.0
    /// Modules finer than this blur into each other in a phone photo taken at arm's length.
    public static let minimumModuleSize = 0.5
    public static let pointsPerMillimetre = 72 / 25.4

    public let entries: [SheetEntry]
    public let options: SheetOptions

    public init(entries: [SheetEntry], options: SheetOptions) {
        self.entries = entries
        self.options = options
    }

    var grid: PageGrid { PageGrid(layout: options.layout, paper: options.paper) }

    public var pageCount: Int {
        let perPage = grid.slots.count
        return max(1, (entries.count + perPage - 1) / perPage)
    }

    /// The whole sheet as one PDF document with vector codes.
    public func pdf() throws(SheetError) -> Data {
        let k = Self.pointsPerMillimetre
        let surface = CairoSurface.pdf(width: options.paper.width * k, height: options.paper.height * k,
                                       title: options.title)
        for page in 0..<pageCount {
            let cr = CairoContext(surface)
            cr.scale(k)
            try drawPage(page, on: cr)
            cr.showPage()
            try cairo { () throws(CairoError) in try cr.check() }
        }
        return try cairo { () throws(CairoError) in try surface.finishDocument() }
    }

    /// Page `page` (from 0) rendered at `dpi` as PNG bytes.
    public func pngPage(_ page: Int, dpi: Double = 300) throws(SheetError) -> Data {
        let scale = dpi / 25.4
        let width = Int((options.paper.width * scale).rounded()), height = Int((options.paper.height * scale).rounded())
        let surface = CairoSurface.image(width: width, height: height)
        let cr = CairoContext(surface)
        cr.scale(scale)
        cr.fillPage(width: options.paper.width, height: options.paper.height)
        try drawPage(page, on: cr)
        try cairo { () throws(CairoError) in try cr.check() }
        return try cairo { () throws(CairoError) in try surface.pngData() }
    }

    private func cairo<T>(_ body: () throws(CairoError) -> T) throws(SheetError) -> T {
        do { return try body() } catch { throw .cairo(error) }
    }

    private func encode(_ entries: ArraySlice<SheetEntry>) throws(SheetError) -> [QRSymbol] {
        var symbols: [QRSymbol] = []
        symbols.reserveCapacity(entries.count)
        for entry in entries {
            do { symbols.append(try QRSymbol(encoding: entry.payload, level: options.level)) } catch {
                throw .encoding(cacheID: entry.cacheID, error)
            }
        }
        return symbols
    }

    private func drawPage(_ page: Int, on cr: CairoContext) throws(SheetError) {
        let grid = self.grid
        let first = page * grid.slots.count
        let symbols = try encode(entries[first..<min(entries.count, first + grid.slots.count)])
        let painter = CardPainter(cr: cr, grid: grid, withHints: options.withHints)
        for (i, slot) in grid.slots.enumerated() where first + i < entries.count {
            let symbolWidth = painter.draw(entries[first + i], symbols[i], in: slot)
            let module = symbolWidth / Double(symbols[i].width)
            if symbolWidth < Self.minimumCodeWidth || module < Self.minimumModuleSize {
                throw .codeTooSmall(cacheID: entries[first + i].cacheID, millimetres: symbolWidth, module: module)
            }
        }
        if grid.cutMarks {
            painter.drawCropMarks(paper: options.paper, slots: Array(grid.slots.prefix(entries.count - first)))
        }
        painter.drawFooter("\(options.title) · page \(page + 1) of \(pageCount)", paper: options.paper)
    }
}
