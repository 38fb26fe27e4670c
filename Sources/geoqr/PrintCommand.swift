import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a hunt's cache codes on sheets to cut out and hide.",
        discussion: """
        Writes a PDF (vector codes, for any printer) or PNG pages at 300 dpi (sheet.png becomes \
        sheet-1.png, sheet-2.png, …). Each code is printed with the cache's name and id, its \
        coordinates in the geocaching form, its trail and, with --with-hints, its hint.

        Layouts:
          poster  one cache per page, the code as large as the page allows
          cards   six cards a page (2×3) with cut lines and crop marks
          labels  sticker sheets: Avery L7160 on A4 (21 labels), Avery 5163 on Letter (10)

        Every code is at least 25 mm wide. Print at 100% ("actual size"), not "fit to page".

        Examples:
          geoqr print demo -o demo-sheet.pdf
          geoqr print demo --layout labels --paper letter -o labels.pdf
          geoqr print demo --base-url https://192.168.1.20:8443 -o demo-sheet.pdf
        """
    )

    @Argument(help: "Hunt name or hunt file.")
    var hunt = "demo"

    @Option(name: .shortAndLong, help: ArgumentHelp("Output: FILE.pdf, or FILE.png for numbered PNG pages.", valueName: "FILE"))
    var output = "demo-sheet.pdf"

    @Option(help: "poster, cards or labels.")
    var layout: SheetLayout = .cards

    @Option(help: "a4 or letter.")
    var paper: PaperSize = .a4

    @Flag(name: .customLong("with-hints"), help: "Print each cache's hint under its code.")
    var withHints = false

    @OptionGroup var codeOptions: CodeOptions
    @OptionGroup var dataOptions: DataOptions

    @Flag(help: "Print what was written as JSON.")
    var json = false

    var outputKind: String { (output as NSString).pathExtension.lowercased() }

    func validate() throws {
        guard ["pdf", "png"].contains(outputKind) else {
            throw ValidationError("-o \(output): name a .pdf file, or a .png file for one PNG per page")
        }
    }

    func run() throws {
        let h = try loadHunt(hunt).hunt
        let secret: HuntSecret
        do { secret = try dataOptions.directory().secret(forHunt: h.id) } catch { throw CommandFailure.from(error) }
        let entries = h.caches.map { cache in
            SheetEntry(payload: codeOptions.payload(hunt: h, cache: cache, secret: secret), cacheID: cache.id,
                       name: cache.name, latitude: cache.coordinate.geocachingLatitude,
                       longitude: cache.coordinate.geocachingLongitude,
                       trail: trailLabel(h, cache), hint: cache.hint,
                       typedCode: TypedCode.text(hunt: h.id, cache: cache.id, secret: secret))
        }
        codeOptions.warnIfLarge(entries.map(\.payload))
        let sheet = Sheet(entries: entries, options: SheetOptions(paper: paper, layout: layout, withHints: withHints,
                                                                   level: codeOptions.level, title: h.name))
        let files: [String]
        do {
            files = outputKind == "pdf" ? try writePDF(sheet) : try writePNGPages(sheet)
        } catch let error as SheetError {
            throw CommandFailure(error.description)
        } catch let error as FileError {
            throw CommandFailure(error.description)
        }
        if json {
            try printJSON(PrintResult(hunt: h.id, caches: entries.count, pages: sheet.pageCount, files: files))
        } else {
            let pages = sheet.pageCount == 1 ? "1 page" : "\(sheet.pageCount) pages"
            print("\(h.name): \(entries.count) caches on \(pages) (\(layout.rawValue), \(paper.rawValue.uppercased())) → \(files.joined(separator: ", "))")
        }
    }

    private func writePDF(_ sheet: Sheet) throws -> [String] {
        try FileAccess.write(try sheet.pdf(), to: output)
        return [output]
    }

    /// sheet.png → sheet-1.png, sheet-2.png…; every page is rendered before any is written, so
    /// a failure leaves no partial set behind.
    private func writePNGPages(_ sheet: Sheet) throws -> [String] {
        let progress = Progress(label: "pages", total: sheet.pageCount)
        var pages: [Data] = []
        for page in 0..<sheet.pageCount {
            pages.append(try sheet.pngPage(page, dpi: 300))
            progress.update(page + 1)
        }
        let base = (output as NSString).deletingPathExtension
        let files = pages.indices.map { "\(base)-\($0 + 1).png" }
        for (data, file) in zip(pages, files) { try FileAccess.write(data, to: file) }
        return files
    }

    private func trailLabel(_ hunt: Hunt, _ cache: Cache) -> String? {
        guard let trail = hunt.trail(of: cache.id), let index = trail.cacheIDs.firstIndex(of: cache.id) else { return nil }
        return trail.ordered ? "\(trail.name) (\(index + 1) of \(trail.cacheIDs.count))" : trail.name
    }
}

extension SheetLayout: ExpressibleByArgument {}
extension PaperSize: ExpressibleByArgument {}

struct PrintResult: Encodable {
    let hunt: String
    let caches: Int
    let pages: Int
    let files: [String]
}
