import ArgumentParser
import Foundation
import GeoQR

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Say which cache a scanned code is, or why it is not a valid one.",
        discussion: """
        PAYLOAD is the text a QR holds, in its short form (GQ1.DEMO.A1.…) or its URL form \
        (HTTPS://HOST/C/GQ1.DEMO.A1.…), or the typed code printed under it (A1-MZ4T-Y32M, any \
        case). Rejections: malformed, unknown-version, other-hunt, \
        unknown-cache, bad-mac. Exit status 0 for a valid code, 1 otherwise.
        """
    )

    @Argument(help: "The scanned text, or a typed code.")
    var payload: String

    @Option(help: "Hunt name or hunt file the code should belong to.")
    var hunt: String

    @OptionGroup var dataOptions: DataOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        let h = try loadHunt(hunt, quietWarnings: true).hunt
        let data = try dataOptions.directory()
        let secret: HuntSecret
        do {
            guard let s = try data.existingSecret(forHunt: h.id) else {
                throw CommandFailure("hunt \(h.id) has no secret in \(data.path): no codes were printed with this data directory")
            }
            secret = s
        } catch { throw CommandFailure.from(error) }

        switch h.verify(payload, secret: secret) {
        case .success(let cache):
            if json {
                try printJSON(VerifyResult(valid: true, hunt: h.id, cache: cache.id, name: cache.name, rejection: nil, message: nil))
            } else {
                print("valid: \(h.id) cache \(cache.id) \"\(cache.name)\" at \(cache.coordinate.geocachingForm)")
            }
        case .failure(let rejection):
            if json {
                try printJSON(VerifyResult(valid: false, hunt: h.id, cache: nil, name: nil,
                                           rejection: rejection.code, message: rejection.description))
            } else {
                print("rejected (\(rejection.code)): \(rejection)")
            }
            throw ExitCode.failure
        }
    }
}

struct VerifyResult: Encodable {
    let valid: Bool
    let hunt: String
    let cache: String?
    let name: String?
    let rejection: String?
    let message: String?
}
