import Foundation
import Testing
@testable import QRImaging

/// Text as it was written: payloads in UTF-8, Shift-JIS and ISO-8859-1, with and without an
/// ECI segment naming their character set, made by this test with qrencode (byte mode, no
/// ECI) and ZXingWriter (with ECI), decoded from real pixels.
@Suite struct PayloadTextTests {
    @Test func undeclaredBytesAreReadAsUTF8ThenShiftJISThenLatin1() {
        #expect(PayloadText.text(of: Array("GQ1.DEMO.A1.K3J5M2QX7P4RT6WA".utf8)) == "GQ1.DEMO.A1.K3J5M2QX7P4RT6WA")
        #expect(PayloadText.text(of: Array("Praça do Peixe ☕".utf8)) == "Praça do Peixe ☕")
        #expect(PayloadText.text(of: [0xEF, 0xBB, 0xBF] + Array("Olá".utf8)) == "Olá", "a byte-order mark is dropped")
        for latin1 in ["Café à côté", "Ação", "Grüße aus Köln", "Praça da República"] {
            #expect(PayloadText.text(of: Array(latin1.data(using: .isoLatin1)!)) == latin1)
        }
        for japanese in ["宝探しへようこそ", "ｶﾀｶﾅと漢字", "次のキャッシュは橋の下"] {
            #expect(PayloadText.text(of: Array(japanese.data(using: .shiftJIS)!)) == japanese)
        }
        #expect(PayloadText.text(of: [0x00, 0xFF, 0x80]) == "\u{0}ÿ\u{80}", "any bytes read as ISO-8859-1")
    }

    /// Byte mode with no ECI, as most encoders write: the text is guessed from the bytes.
    @Test(arguments: [("utf8", "Praça do Peixe ☕"), ("sjis", "宝探しへようこそ"), ("latin1", "Café à côté, Ação")])
    func undeclaredPayloadsReadBackAsTheirText(encoding: String, text: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes: Data = switch encoding {
        case "sjis": text.data(using: .shiftJIS)!
        case "latin1": text.data(using: .isoLatin1)!
        default: Data(text.utf8)
        }
        let input = folder.appendingPathComponent("payload.bin"), png = folder.appendingPathComponent("code.png")
        try bytes.write(to: input)
        _ = try run("qrencode", "-8", "-r", input.path, "-s", "6", "-o", png.path)
        let symbol = try #require(try PictureDecoder().decode(fileBytes: Data(contentsOf: png)).symbols.first)
        #expect(symbol.text == text)
        #expect(symbol.raw == Array(bytes), "raw stays the bytes as written")
    }

    /// A payload that names its character set in an ECI segment is read in that set.
    @Test(arguments: [("ISO-8859-5", "Привет, охотник"), ("Shift_JIS", "宝探しへようこそ"), ("UTF-8", "Praça ☕"),
                      ("ISO-8859-1", "Grüße aus Köln")])
    func declaredPayloadsReadBackAsTheirText(charset: String, text: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("code.png")
        _ = try run("ZXingWriter", "-size", "400x400", "-encoding", charset, "QRCode", text, png.path)
        let symbol = try #require(try PictureDecoder().decode(fileBytes: Data(contentsOf: png)).symbols.first)
        #expect(symbol.text == text, "\(charset)")
    }

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("payload-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
