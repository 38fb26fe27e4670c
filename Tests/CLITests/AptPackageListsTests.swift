import Foundation
import Testing

/// The Debian package lists. `scripts/demo` installs `scripts/apt-packages.txt` alone, so it
/// holds what building and running needs and no test tool; `scripts/test` adds every
/// `scripts/apt-packages-*test*.txt`. Each package sits under a comment that says why.
@Suite struct AptPackageListsTests {
    static let scripts = GeoQRProcess.packageRoot.appendingPathComponent("scripts")

    /// What only tests and benchmarks run: none may be in the run list.
    static let testTools: Set = [
        "chromium", "chromium-driver", "ffmpeg", "valgrind", "wrk", "hyperfine", "zbar-tools", "qrencode",
        "poppler-utils", "zxing-cpp-tools", "geographiclib-tools", "python3-pip", "curl", "sqlite3",
        "libxml2-utils", "zip", "libheif-examples", "libjpeg-turbo-progs", "libimage-exiftool-perl", "time",
        "python3-jsonschema", "python3-numpy", "python3-scipy", "postgresql",
    ]

    /// Programs the test command runs (the Swift suites, Tests/browser, scripts/api-contract,
    /// the crash loop, the fuzz seeds).
    static let programsTestsRun = [
        "zbarimg", "qrencode", "pdftoppm", "pdftotext", "pdfimages", "ZXingReader", "cjpeg", "heif-enc", "exiftool",
        "ffmpeg", "curl", "sqlite3", "xmllint", "zip", "setpriv", "time", "chromium", "chromedriver", "GeodSolve",
    ].map { "/usr/bin/" + $0 }

    /// The packages in `file`, each with the comment lines above it (up to the last package or
    /// blank line before).
    static func packages(_ file: String) throws -> [(name: String, comment: String)] {
        let text = try String(contentsOf: scripts.appendingPathComponent(file), encoding: .utf8)
        var found: [(name: String, comment: String)] = [], comment = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#") {
                comment += line.dropFirst() + " "
            } else if line.isEmpty {
                comment = ""
            } else {
                found.append((String(line.split(separator: " ")[0]), comment))
            }
        }
        return found
    }

    static func testLists() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scripts.path)
            .filter { $0.hasPrefix("apt-packages-") && $0.contains("test") && $0.hasSuffix(".txt") }.sorted()
    }

    @Test func theRunListHoldsNoTestTool() throws {
        let run = Set(try Self.packages("apt-packages.txt").map(\.name))
        let test = Set(try Self.testLists().flatMap { try Self.packages($0).map(\.name) })
        #expect(try Self.testLists().contains("apt-packages-test.txt"))
        #expect(run.intersection(Self.testTools).isEmpty, "scripts/demo would install test tools: move them to apt-packages-test.txt")
        #expect(run.intersection(test).isEmpty, "in both lists: \(run.intersection(test).sorted())")
        #expect(Self.testTools.subtracting(test).isEmpty, "test tools in no test list: \(Self.testTools.subtracting(test).sorted())")
        #expect(run.isSuperset(of: ["pkg-config", "libqrencode-dev", "libzbar-dev", "libcairo2-dev", "libsqlite3-dev", "libjs-leaflet"]))
    }

    @Test func everyPackageSaysWhyItIsThere() throws {
        for file in try ["apt-packages.txt"] + Self.testLists() {
            for package in try Self.packages(file) {
                #expect(package.comment.count > 10, "\(file): \(package.name) has no comment above it saying why")
            }
        }
    }

    /// Each program the tests run that is installed here belongs to a package of the lists.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg")))
    func theProgramsTestsRunComeFromTheLists() throws {
        let installed = Self.programsTestsRun.filter(FileManager.default.isExecutableFile(atPath:))
        let dpkg = Process(), out = Pipe()
        dpkg.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg")
        dpkg.arguments = ["-S"] + installed
        dpkg.standardOutput = out
        dpkg.standardError = FileHandle.nullDevice
        try dpkg.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        dpkg.waitUntilExit()
        let listed = Set(try (["apt-packages.txt"] + Self.testLists()).flatMap { try Self.packages($0).map(\.name) })
        for line in text.split(separator: "\n") where !line.hasPrefix("diversion") {
            guard let colon = line.range(of: ": ") else { continue }   // "chromium-driver: /usr/bin/chromedriver"
            let path = line[colon.upperBound...]
            let owners = line[..<colon.lowerBound].split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces).split(separator: ":")[0])   // less any ":amd64"
            }
            #expect(owners.contains(where: listed.contains), "\(path) comes from \(owners), in no scripts/apt-packages*.txt")
        }
    }
}
