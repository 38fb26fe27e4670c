// swift-tools-version:6.0
import Foundation
import PackageDescription

// libFuzzer harnesses for GeoQR's parsers of untrusted bytes (issue 7 §3). Each executable
// exports `LLVMFuzzerTestOneInput` and gets libFuzzer's `main` by linking with
// `-sanitize=fuzzer`; `scripts/fuzz` builds them with `--sanitize=fuzzer --sanitize=address`
// into `.build-fuzz/` and runs them. A package of its own so that neither the main package's
// `geoqr` executable (whose `main` would clash with libFuzzer's) nor its tests are built with
// the fuzzer's instrumentation.

// A path dependency's identity is its folder's name (`main`, a worktree, a CI clone), so it is
// read here rather than written down.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let geoqr = root.lastPathComponent

func harness(_ name: String, _ products: [String], extra: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name,
                      dependencies: products.map { .product(name: $0, package: geoqr) } + extra,
                      swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "GeoQRFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // PNG, JPEG and HEIC through `Picture`, with the hunt server's limits.
        harness("FuzzPicture", ["QRImaging"]),
        // EXIF from JPEG, PNG, bare TIFF and HEIF metadata blocks, through `PhotoMetadata`.
        harness("FuzzExif", ["PhotoMetadata", "GeoQR"]),
        // Cache codes: parse, verify against a hunt and its secret, judge a claim.
        harness("FuzzCode", ["GeoQR"]),
        // Hunt files (JSON) through `HuntParser`.
        harness("FuzzHunt", ["GeoQR"]),
        // GPX through the libxml2 streaming reader and the importer, as `geoqr import` runs them.
        harness("FuzzGPX", ["Interchange", "GeoQR"]),
        // IOF XML 3.0 course data (Purple Pen, OCAD) through the same reader, made a hunt,
        // exported and read back.
        harness("FuzzIOF", ["Interchange", "GeoQR"]),
        // The claim-photo form: Content-Type boundary and multipart body, through the server's
        // own PhotoForm.swift (linked into the target's folder; it imports only Foundation).
        harness("FuzzMultipart", []),
    ],
    swiftLanguageModes: [.v6]
)
