import Foundation
import GeoQR
import Testing
@testable import QRImaging

/// Every printed code must decode again: the PDF is rasterised with pdftoppm at 150 dpi and each
/// page decoded with zbar (through SymbolReader) and with ZXingReader; each payload must verify
/// as the cache printed in that slot.
@Suite(.serialized) struct SheetTests {
    static let secret = HuntSecret(bytes: (0..<32).map { UInt8(255 - $0) })!
    static let hunt: Hunt = {
        let names = ["Rectorate steps", "Salt pan view", "Crasto footbridge with a name far too long for one line of a card",
                     "Library", "Canteen courtyard", "Ria viewpoint", "Physics", "Bus stop", "Old mill"]
        let caches = names.enumerated().map { i, name in
            Cache(id: "C\(i + 1)", name: name, coordinate: Coordinate(latitude: 40.62 + Double(i) * 0.001, longitude: -8.65),
                  message: "m", hint: "Under the bench by the \(i + 1)th tree, look left and then right")
        }
        return Hunt(id: "SHEETTEST", name: "Sheet test", caches: caches)
    }()

    static func entries(baseURL: String? = nil) -> [SheetEntry] {
        hunt.caches.map { c in
            SheetEntry(payload: CacheCode.payload(hunt: hunt.id, cache: c.id, secret: secret, baseURL: baseURL),
                       cacheID: c.id, name: c.name, latitude: c.coordinate.geocachingLatitude,
                       longitude: c.coordinate.geocachingLongitude, trail: "Loop", hint: c.hint)
        }
    }

    struct Case: CustomStringConvertible, Sendable {
        let layout: SheetLayout, paper: PaperSize, baseURL: String?
        var description: String { "\(layout.rawValue)-\(paper.rawValue)\(baseURL == nil ? "" : "-url")" }
    }

    static let cases: [Case] = SheetLayout.allCases.flatMap { layout in PaperSize.allCases.map { Case(layout: layout, paper: $0, baseURL: nil) } }
        + [Case(layout: .labels, paper: .a4, baseURL: "https://192.168.1.20:8443")]

    @Test("printed PDFs decode with zbar and ZXing, each code in its own slot", arguments: cases)
    func pdfDecodesAgain(_ c: Case) throws {
        let sheet = Sheet(entries: Self.entries(baseURL: c.baseURL),
                          options: SheetOptions(paper: c.paper, layout: c.layout, withHints: true, title: "Sheet test"))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("sheet.pdf")
        try sheet.pdf().write(to: pdf)
        #expect(try run("pdfimages", "-list", pdf.path).split(separator: "\n").count == 2, "vector only: no images in the PDF")
        try run("pdftoppm", "-r", "150", "-png", pdf.path, dir.appendingPathComponent("page").path)
        let grid = PageGrid(layout: c.layout, paper: c.paper)
        var seen: [String] = []
        for page in 0..<sheet.pageCount {
            let png = dir.appendingPathComponent(pageFileName(page + 1, of: sheet.pageCount))
            let image = try PNGCodec.decode(try Data(contentsOf: png))
            let symbols = SymbolReader().read(image)
            let expectedHere = min(grid.slots.count, Self.hunt.caches.count - page * grid.slots.count)
            #expect(symbols.count == expectedHere, "zbar read \(symbols.count) of \(expectedHere) on page \(page + 1)")
            for symbol in symbols {
                let cache = try Self.hunt.verify(symbol.text, secret: Self.secret).get()
                let slot = try #require(slotIndex(of: symbol, in: grid, dpi: 150))
                #expect(cache.id == Self.hunt.caches[page * grid.slots.count + slot].id)
                seen.append(cache.id)
            }
            let zxing = try run("ZXingReader", "-1", "-fast", png.path)
            // One line a code: FILE QRCode "TEXT"
            let zxingTexts = zxing.split(separator: "\n").compactMap { line -> String? in
                guard line.contains(" QRCode \""), let open = line.firstIndex(of: "\""), line.last == "\"" else { return nil }
                return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
            }
            #expect(zxingTexts.count == expectedHere, "ZXing read \(zxingTexts.count) of \(expectedHere)")
            for text in zxingTexts { #expect(throws: Never.self) { try Self.hunt.verify(text, secret: Self.secret).get() } }
            let words = try run("pdftotext", "-f", "\(page + 1)", "-l", "\(page + 1)", pdf.path, "-")
            #expect(words.contains("Cache \(Self.hunt.caches[page * grid.slots.count].id)"))
        }
        #expect(seen.sorted() == Self.hunt.caches.map(\.id).sorted())
    }

    @Test func pngPagesAreThreeHundredDPI() throws {
        let sheet = Sheet(entries: Self.entries(), options: SheetOptions(paper: .a4, layout: .cards))
        #expect(sheet.pageCount == 2)
        let page = try PNGCodec.decode(try sheet.pngPage(1, dpi: 300))
        #expect(page.width == 2480 && page.height == 3508)
        #expect(SymbolReader().read(page).count == 3)
    }

    @Test func everyCodeIsAtLeast25mmWide() throws {
        for layout in SheetLayout.allCases {
            for paper in PaperSize.allCases {
                // Through the public API: a too-small code would throw codeTooSmall.
                #expect(throws: Never.self) {
                    _ = try Sheet(entries: Self.entries(baseURL: "https://192.168.100.200:8443"),
                                  options: SheetOptions(paper: paper, layout: layout)).pdf()
                }
            }
        }
    }

    @Test func aPayloadTooLongForALabelIsRefused() {
        var entries = Self.entries()
        entries[0].payload = String(repeating: "A", count: 1200)
        #expect(throws: SheetError.self) {
            _ = try Sheet(entries: entries, options: SheetOptions(layout: .labels)).pdf()
        }
    }

    // MARK: helpers

    /// Which slot of the grid a decoded symbol's centre falls in.
    private func slotIndex(of symbol: DecodedSymbol, in grid: PageGrid, dpi: Double) -> Int? {
        let n = Double(symbol.corners.count)
        let cx = symbol.corners.map { Double($0.x) }.reduce(0, +) / n * 25.4 / dpi
        let cy = symbol.corners.map { Double($0.y) }.reduce(0, +) / n * 25.4 / dpi
        return grid.slots.firstIndex { cx >= $0.x && cx <= $0.x + $0.width && cy >= $0.y && cy <= $0.y + $0.height }
    }

    /// pdftoppm pads page numbers to the width of the last one.
    private func pageFileName(_ page: Int, of count: Int) -> String {
        let digits = String(count).count
        return "page-" + String(repeating: "0", count: max(0, digits - String(page).count)) + "\(page).png"
    }
}

/// A fresh folder for one test's files, which the test removes when it ends (`defer`).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

struct CommandFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs a tool from PATH and returns its standard output; throws on a non-zero exit.
@discardableResult
func run(_ tool: String, _ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CommandFailed(description: "\(tool) \(arguments.joined(separator: " ")): exit \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
}
