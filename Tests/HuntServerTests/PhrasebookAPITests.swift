import Foundation
import GeoQR
import HTTPTypes
@testable import HuntServer
import NIOCore
import Testing

/// The server answers players in the language their request asks for (`Accept-Language`):
/// claim sentences and directions, the caches' directions and refusals; codes never change.
@Suite struct PhrasebookAPITests {
    @Test func claimsAreAnsweredInPortuguese() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ana = try await client.join("Ana")
            let far = Harness.north(of: Harness.a1, metres: 300)
            let tooFar = try await client.speaking("pt-BR,pt;q=0.9,en;q=0.8", .post, "/api/claims", token: ana.token,
                                                   json: ["code": h.code("A1"), "latitude": far.latitude, "longitude": far.longitude])
            #expect(tooFar["verdict"] as? String == "too-far")
            #expect(tooFar["direction"] as? String == "sul")
            let sentence = try #require(tooFar["sentence"] as? String)
            #expect(sentence.hasPrefix("Rectorate steps fica a "), "\(sentence)")
            #expect(sentence.hasSuffix(" m, para sul: ainda falta caminhar."), "\(sentence)")
            #expect((tooFar["line"] as? String)?.hasPrefix("too-far: walk") == true, "the organiser's line stays English")
            #expect(tooFar.headers[values: .vary].contains("Accept-Language"))

            let near = Harness.north(of: Harness.a1, metres: 10)
            let found = try await client.speaking("pt", .post, "/api/claims", token: ana.token,
                                                  json: ["code": h.code("A1"), "latitude": near.latitude, "longitude": near.longitude])
            #expect(found["sentence"] as? String == "Rectorate steps encontrada: a 10 m da cache.")
            let again = try await client.speaking("pt", .post, "/api/claims", token: ana.token,
                                                  json: ["code": h.code("A1"), "latitude": near.latitude, "longitude": near.longitude])
            #expect(again["sentence"] as? String == "Rectorate steps já foi encontrada por este jogador.")

            // The same claim in English, and with no header at all.
            let english = try await client.speaking("en-GB", .post, "/api/claims", token: ana.token,
                                                    json: ["code": h.code("B1"), "latitude": far.latitude, "longitude": far.longitude])
            #expect((english["sentence"] as? String)?.hasSuffix("walk on.") == true)
            let plain = try await client.claim(h.code("B1"), token: ana.token, at: far)
            #expect((plain["sentence"] as? String)?.hasSuffix("walk on.") == true)
        }
    }

    @Test func cachesAndRefusalsInPortuguese() async throws {
        let h = try Harness(limits: [.join: .init(burst: 1, perSecond: 0.001)])
        try await h.app.test(.live) { client in
            let here = Harness.north(of: Harness.a1, metres: -200)
            let caches = try await client.speaking("pt", .get, "/api/caches?latitude=\(here.latitude)&longitude=\(here.longitude)")
            let directions = (caches["caches"] as? [[String: Any]])?.compactMap { $0["direction"] as? String } ?? []
            #expect(directions.first == "norte", "\(directions)")

            _ = try await client.join("Ana")
            let taken = try await client.speaking("pt", .post, "/api/join", json: ["name": "Ana", "pin": "1234"])
            #expect(taken.status == .tooManyRequests && taken.error == "rate-limited")
            #expect((taken["message"] as? String)?.hasPrefix("demasiados pedidos de inscrição a partir deste endereço; aguarde") == true,
                    "\(taken.text)")

            let noToken = try await client.speaking("pt-PT", .get, "/api/me")
            #expect(noToken.error == "no-token")
            #expect((noToken["message"] as? String)?.hasPrefix("entre no jogo primeiro") == true)
            let english = try await client.call(.get, "/api/me")
            #expect((english["message"] as? String)?.hasPrefix("sign in first") == true)
        }
    }

    @Test func gameRefusalsInPortuguese() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            _ = try await client.join("Ana")
            let taken = try await client.speaking("pt", .post, "/api/join", json: ["name": "ana", "pin": "1234"])
            #expect(taken.status == .conflict && taken.error == "name-taken")
            #expect(taken["message"] as? String == "o nome \"ana\" já existe neste jogo (sem distinguir maiúsculas de minúsculas): escolha outro")
        }
    }

    @Test func catalogueIsServedPerLanguage() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let pt = try await client.call(.get, "/i18n/pt.json")
            #expect(pt.status == .ok && pt.headers[.contentType] == "application/json; charset=utf-8")
            #expect(pt["compass.ne"] as? String == "nordeste" && pt["language.name"] as? String == "Português")
            #expect(pt.json.count == Phrasebook.entries(.en).count)
            let en = try await client.call(.get, "/i18n/en.json")
            #expect(en["claim.no-code"] as? String == "No GeoQR code here.")
            let etag = try #require(en.headers[.eTag])
            let again = try await client.execute(uri: "/i18n/en.json", method: .get, headers: [.ifNoneMatch: etag]) { $0.status }
            #expect(again == .notModified)
            for unknown in ["/i18n/de.json", "/i18n/pt", "/i18n/PT.json", "/i18n/pt.json.json"] {
                let reply = try await client.call(.get, unknown)
                #expect(reply.status == .notFound && reply.error == "no-language", "\(unknown)")
            }
        }
    }
}

extension TestClientProtocol {
    /// A JSON request whose `Accept-Language` is `languages`, as the web app sends every fetch.
    func speaking(_ languages: String, _ method: HTTPRequest.Method, _ uri: String, token: String? = nil,
                  json body: [String: Any]? = nil) async throws -> Reply {
        var headers: HTTPFields = [.acceptLanguage: languages]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
            headers[.contentType] = "application/json"
            headers[.contentLength] = String(buffer!.readableBytes)
        }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Reply(status: response.status, headers: response.headers, json: json, text: text)
        }
    }
}
