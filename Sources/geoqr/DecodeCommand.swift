import ArgumentParser
import Foundation
import QRImaging

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Read the codes in photos and images (PNG, JPEG, HEIC).",
        discussion: """
        Prints FILE: TEXT for each code found. Folders are walked recursively for .png, .jpg, \
        .jpeg, .heic and .heif files; a file that cannot be read is reported on standard error \
        and skipped. JPEG EXIF orientation is applied.

        Each picture goes through passes that get harder only when the easier ones found \
        nothing: a reduced copy (pictures of 1200 px and up) as it is, inverted (light-on-dark \
        codes) and locally binarised (shadows, noise, moiré); then full size, ½ scale, local \
        binarisation, inversion, sharpening and ×2 scale. With --all every pass runs and every \
        distinct code is reported; without it, a photo's smaller codes are missed when a \
        bigger one is found at reduced size. --passes chooses other passes or another order; \
        two more are available there: stretched (global contrast stretch) and rotated (45° \
        turn).

        --json prints one object per file per line: {"file", "codes": [{"text", "raw" (base64), \
        "corners" (in the file's stored pixels), "symbology", "pass"}], "error" (only when \
        unreadable)}.

        Exit status: 0 when at least one code was found, 1 when none, 2 on usage errors.

        Examples:
          geoqr decode photo.jpg
          geoqr decode --json field-photos/ > codes.jsonl
          geoqr decode --all --symbologies qr,ean13 shelf.heic
        """
    )

    @Argument(help: ArgumentHelp("Image files or folders.", valueName: "FILE|FOLDER"))
    var paths: [String] = []

    @Flag(help: "Print one JSON object per file per line.")
    var json = false

    @Flag(help: "Run every pass and report every distinct code, not just the first pass's.")
    var all = false

    @Option(help: ArgumentHelp("Comma-separated symbologies to look for: \(Symbology.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "LIST"))
    var symbologies = "qr"

    @Option(name: .customLong("max-megapixels"), help: "Refuse pictures larger than this, before decoding them.")
    var maxMegapixels = 50

    @Option(help: ArgumentHelp("Comma-separated passes to try, in this order: \(DecodePass.allCases.map(\.rawValue).joined(separator: ", ")). (default: \(DecodePass.standard.map(\.rawValue).joined(separator: ",")))",
                               valueName: "LIST"))
    var passes: String?

    @Option(help: "Pictures decoded at once (default: one per core).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one image file or folder") }
        _ = try parsedSymbologies()
        _ = try parsedPasses()
        guard (1...1000).contains(maxMegapixels) else { throw ValidationError("--max-megapixels \(maxMegapixels): must be 1 to 1000") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs \(jobs): must be 1 to 64") }
    }

    func parsedSymbologies() throws -> Set<Symbology> {
        Set(try list(symbologies).map { name in
            guard let s = Symbology(rawValue: name) else {
                throw ValidationError("--symbologies: unknown \"\(name)\"; choose from \(Symbology.allCases.map(\.rawValue).joined(separator: ","))")
            }
            return s
        })
    }

    func parsedPasses() throws -> [DecodePass] {
        guard let passes else { return DecodePass.standard }
        return try list(passes).map { name in
            guard let p = DecodePass(rawValue: name) else {
                throw ValidationError("--passes: unknown \"\(name)\"; choose from \(DecodePass.allCases.map(\.rawValue).joined(separator: ","))")
            }
            return p
        }
    }

    private func list(_ text: String) throws -> [String] {
        let items = text.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw ValidationError("an empty list: name at least one") }
        return items
    }

    func run() throws {
        let inputs = PictureInput.expand(paths)
        guard !inputs.isEmpty else { throw CommandFailure("no images in \(paths.joined(separator: ", "))") }
        let batch = DecodeBatch(inputs: inputs, symbologies: try parsedSymbologies(), passes: try parsedPasses(),
                                findAll: all, limits: PictureLimits(maxPixels: maxMegapixels * 1_000_000), jobs: jobs)
        let json = json
        let output = OrderedOutput<DecodeReport> { report in
            if json {
                print(report.jsonLine())
            } else {
                report.codes.forEach { print("\(report.file): \($0.text)") }
            }
            if let error = report.error { warn("\(report.file): \(error)") }
        }
        let found = batch.run(into: output)
        if found == 0 {
            if !json { warn("no code found in \(inputs.count == 1 ? "1 file" : "\(inputs.count) files")") }
            throw ExitCode.failure
        }
    }
}
