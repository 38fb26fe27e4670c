// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "GeoQR",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "geoqr", targets: ["geoqr"]),
        .library(name: "GeoQR", targets: ["GeoQR"]),
        .library(name: "QRImaging", targets: ["QRImaging"]),
        .library(name: "Interchange", targets: ["Interchange"]),
        .library(name: "PhotoMetadata", targets: ["PhotoMetadata"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "Play", targets: ["Play"]),
        .library(name: "HuntServer", targets: ["HuntServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only its HummingbirdBcrypt product is used here: it builds one small C target.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // Without its default ConfigurationSupport trait: nothing here reads swift-configuration,
        // which would otherwise be compiled (with swift-system) into every build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
                 traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Hummingbird's own dependency; its NIOHTTPTypes names the request head ConnectionLimits reads.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // System libraries, found with pkg-config. Nothing above QRImaging sees their pointers.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar",
                       providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        // libjpeg reports errors by longjmp, which Swift cannot catch: this C shim owns each
        // libjpeg (de)compressor from creation to destruction behind setjmp.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        // UTS #39 confusable skeletons from ICU's spoof checker (libicu-dev's headers), loaded with
        // dlopen: linked, Debian's ICU would bind symbols of the ICU inside Foundation (see its header).
        .target(name: "CICU"),

        // Bounded pools of threads for heavy work (picture decoding, bcrypt), apart from the
        // threads that read requests and from Swift's shared pool. Infrastructure only: which
        // work is heavy, and which picture is too costly to take at all, is decided by the
        // targets that use it (Play, QRImaging, Ledger).
        .target(name: "Workers"),

        // The domain: geodesy, hunts, codes, claim rules. Pure Swift values; no I/O, no C.
        .target(name: "GeoQR", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The files on a game master's machine: hunt files in caches/, the private data directory.
        .target(name: "HuntFiles", dependencies: ["GeoQR"]),
        // Codes into and out of pixels: QR symbols, PNG/SVG, printed sheets, decoding.
        .target(name: "QRImaging", dependencies: [
            "GeoQR", "CQREncode", "CPNG", "CZBar", "CCairo", "CJPEGShim", "CHeif",
        ]),
        // The formats geocachers already use: GPX in and out, zipped pocket queries, field notes,
        // GeoJSON. Streams XML through libxml2's reader; no DOM, no DTDs, no entities.
        .target(name: "Interchange", dependencies: [
            "GeoQR", "CXML2",
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // Where and when a photo was taken: EXIF through libexif, from JPEG, PNG or HEIF blobs.
        .target(name: "PhotoMetadata", dependencies: ["GeoQR", "CExif"]),
        // The game ledger: an append-only, hash-chained event table and the state derived from
        // it, behind the GameStore protocol: in SQLite (GRDB) by default, or in PostgreSQL
        // (postgres-nio). Both stores live here, not PostgreSQL in a target of its own: they
        // write the same event bodies (which only the ledger makes), run the same projection and
        // verifier, and every product that opens a ledger (geoqr, the server) links both anyway.
        .target(name: "Ledger", dependencies: [
            "GeoQR", "Workers",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C interface, for the few statements every event runs (ProjectionStatement).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        ]),
        // The game's actions, each written once: join, claim (photo, frame, link), trade,
        // trackables, reports, every game-master act. The command line and the server are
        // adapters over it: they parse, call an action, and render its outcome.
        .target(name: "Play", dependencies: [
            "GeoQR", "HuntFiles", "Ledger", "QRImaging", "PhotoMetadata", "Workers", "CICU",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The hunt server: JSON API, server-sent events and the phone web app (assets/web, built
        // in by the EmbedWebApp plugin), over the ledger, on Hummingbird.
        .target(name: "HuntServer", dependencies: [
            "GeoQR", "HuntFiles", "Ledger", "Play", "QRImaging", "PhotoMetadata", "Workers",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            // The live streams' chunks go to the connection's HTTP/1 encoder directly (LiveMailbox).
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "GRDB", package: "GRDB.swift"),   // MBTiles basemaps
        ], plugins: ["EmbedWebApp"]),
        // Builds assets/web and assets/openapi.yaml into HuntServer at build time, so `geoqr
        // serve` runs from any folder (`--web DIR` still serves a folder, for work on the pages).
        .plugin(name: "EmbedWebApp", capability: .buildTool(), dependencies: ["embed-web-app"]),
        .executableTarget(name: "embed-web-app", path: "Plugins/embed-web-app"),
        // The command line.
        .executableTarget(name: "geoqr", dependencies: [
            "GeoQR", "QRImaging", "HuntFiles", "Interchange", "Ledger", "PhotoMetadata", "Play", "HuntServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),

        /// Forged payloads for the tests that show no forgery is accepted (issue 7 §6).
        .target(name: "ForgeryCorpus", dependencies: ["GeoQR"], path: "Tests/ForgeryCorpus"),
        .testTarget(name: "GeoQRTests", dependencies: ["GeoQR", "ForgeryCorpus"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "QRImagingTests", dependencies: ["QRImaging", "GeoQR"],
                    exclude: ["Fixtures"]),   // read through #filePath
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "GeoQR"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LedgerTests", dependencies: [
            "Ledger", "GeoQR", "HuntFiles", "ForgeryCorpus", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "CLITests", dependencies: [
            "GeoQR", "QRImaging", "HuntFiles", "Ledger", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        .testTarget(name: "HuntServerTests", dependencies: [
            "HuntServer", "GeoQR", "Ledger", "Play", "QRImaging", "ForgeryCorpus",
            // Requests go to a real server on a loopback socket through a small HTTP/1.1 client
            // of the tests' own (TestHTTP.swift), not HummingbirdTesting, which would compile
            // AsyncHTTPClient and swift-nio-http2 into every test build for it.
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "PlayTests", dependencies: ["Play", "GeoQR", "Ledger", "Workers"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoMetadata", "GeoQR"]),
    ],
    swiftLanguageModes: [.v6]
)
