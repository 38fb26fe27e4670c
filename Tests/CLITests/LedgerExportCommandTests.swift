import Foundation
import Testing

/// `geoqr ledger export` publishes no position, report text or PIN history; `--private` holds
/// them; `geoqr ledger verify FILE` checks an export on its own, as an outsider would (issue 24 §7).
@Suite struct LedgerExportCommandTests {
    /// 11 m from demo cache A2 (a find), and about 2 km from it (refused as too far).
    static let near = "40.628007,-8.659913", far = "40.611113,-8.679987"
    static let secrets = ["40.628007", "8.659913", "40.611113", "8.679987"]

    /// Ada finds A2, Bob claims it from far away, Bob mistypes his PIN twice.
    func played() throws -> GeoQRProcess {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        #expect(try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "9999").status == 0)
        let found = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Ada", "--pin", "4321", "--at", Self.near)
        #expect(found.status == 0, "\(found.stderr)")
        _ = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Bob", "--pin", "9999", "--at", Self.far)
        for _ in 0..<2 {
            _ = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Bob", "--pin", "0000", "--at", Self.far)
        }
        return geoqr
    }

    @Test func thePublishedExportVerifiesOnItsOwnAndHoldsNoPosition() throws {
        let geoqr = try played()
        for format in [["--format", "jsonl"], ["--json"]] {
            let export = try geoqr.run(arguments: ["ledger", "export"] + format)
            #expect(export.status == 0, "\(export.stderr)")
            for secret in Self.secrets + ["pin-checked", "failures"] {
                #expect(!export.stdout.contains(secret), "\(format): \(secret)")
            }
            try geoqr.write(export.stdout, to: "published.txt")
            let verify = try geoqr.run("ledger", "verify", geoqr.path("published.txt"))
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            #expect(verify.stdout.hasPrefix("export intact: ") && verify.stdout.contains("2 withheld by content hash"),
                    "\(verify.stdout)")
            let fromInput = try geoqr.run(arguments: ["ledger", "verify", "-"], input: export.stdoutData)
            #expect(fromInput.stdout == verify.stdout)
        }
        let ledger = try geoqr.run("ledger", "verify", "--json")
        let head = try #require(try JSONSerialization.jsonObject(with: ledger.stdoutData) as? [String: Any])["headHash"] as? String
        let file = try geoqr.run("ledger", "verify", geoqr.path("published.txt"), "--json")
        let report = try #require(try JSONSerialization.jsonObject(with: file.stdoutData) as? [String: Any])
        #expect(report["headHash"] as? String == head, "the export's head is the ledger's")
    }

    @Test func thePrivateExportHoldsEverythingAndVerifies() throws {
        let geoqr = try played()
        let export = try geoqr.run("ledger", "export", "--private")
        for secret in Self.secrets + ["pin-checked"] { #expect(export.stdout.contains(secret), "\(secret)") }
        try geoqr.write(export.stdout, to: "private.jsonl")
        let verify = try geoqr.run("ledger", "verify", geoqr.path("private.jsonl"))
        // 4 in claims, PIN checks and reports, and the 2 joins: names are sealed since "v13: privacy".
        #expect(verify.status == 0 && verify.stdout.contains("6 private parts checked"), "\(verify.stdout)\(verify.stderr)")
    }

    @Test func anEditedExportOrANonExportIsOneLineAndExitOne() throws {
        let geoqr = try played()
        var lines = try geoqr.run("ledger", "export").stdout.split(separator: "\n").map(String.init)
        let find = try #require(lines.firstIndex { $0.contains("find-recorded") })
        lines[find] = lines[find].replacingOccurrences(of: "\"actor\":\"P1\"", with: "\"actor\":\"P2\"")
        try geoqr.write(lines.joined(separator: "\n"), to: "edited.jsonl")
        let edited = try geoqr.run("ledger", "verify", geoqr.path("edited.jsonl"))
        #expect(edited.status == 1)
        #expect(edited.stdout == "export damaged at event \(find + 1): event \(find + 1) (find-recorded) was altered: "
                + "its hash does not match its contents\n")
        try geoqr.write("not an export\n", to: "notes.txt")
        let junk = try geoqr.run("ledger", "verify", geoqr.path("notes.txt"))
        #expect(junk.status == 1 && junk.stderr.hasPrefix("geoqr: ") && junk.stderr.split(separator: "\n").count == 1,
                "\(junk.stderr)")
    }
}
