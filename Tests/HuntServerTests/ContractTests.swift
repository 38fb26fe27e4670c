import Foundation
import HTTPTypes
import HuntServer
import QRImaging
import Testing

/// Refusals the API's contract promises (found by running schemathesis against the OpenAPI
/// file): a wrong method, a wrong content type, a value outside what the schema allows.
@Suite("The API keeps its contract")
struct ContractTests {
    @Test func aWrongMethodIs405WithAllow() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let delete = try await client.call(.delete, "/api/trades", token: ada.token)
            #expect(delete.status == .methodNotAllowed && delete.error == "method-not-allowed")
            #expect(delete.headers[.allow] == "GET, POST")
            let put = try await client.call(.put, "/api/trades/T9/accept", token: ada.token)
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "POST")
            // An address that does not exist for any method stays a 404.
            #expect(try await client.call(.get, "/api/nothing-here", token: ada.token).status == .notFound)
            // And a 404 from a real route (an unknown trade) is not turned into a 405.
            #expect(try await client.call(.post, "/api/trades/T9/accept", token: ada.token).status == .notFound)
        }
    }

    @Test func bodiesMustSayWhatTheyAre() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let json = Data(#"{"name": "Bo", "pin": "4321"}"#.utf8)
            let form = try await client.call(.post, "/api/join", raw: json, contentType: "application/x-www-form-urlencoded")
            #expect(form.status == .unsupportedMediaType && form.error == "unsupported-type")
            let text = try await client.call(.post, "/api/join", raw: json, contentType: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            let charset = try await client.call(.post, "/api/join", raw: json, contentType: "Application/JSON; charset=utf-8")
            #expect(charset.status == .created)
            let empty = try await client.call(.post, "/api/signin", raw: Data(), contentType: "application/json")
            #expect(empty.status == .badRequest && empty.error == "bad-json")

            let bo = try await client.call(.post, "/api/signin", json: ["name": "Bo", "pin": "4321"])
            let token = try #require(bo["token"] as? String)
            let frame = try h.framePNG("A1")
            let wrong = try await client.call(.post, "/api/claims/frame?latitude=40.6303&longitude=-8.6575", token: token,
                                              raw: frame, contentType: "application/json")
            #expect(wrong.status == .unsupportedMediaType)
            let right = try await client.call(.post, "/api/claims/frame?latitude=40.6303&longitude=-8.6575", token: token,
                                              raw: frame, contentType: "image/png")
            #expect(right["verdict"] as? String == "claimable")
        }
    }

    @Test func valuesOutsideTheSchemaAreRefused() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let cy = try await client.join("Cy")
            let method = try await client.call(.post, "/api/claims", token: cy.token,
                                               json: ["code": h.code("A1"), "method": "teleport"])
            #expect(method.status == .unprocessableContent && method.error == "bad-method")

            let boundary = "b0undary"
            func field(_ name: String, _ value: String) -> String {
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            let head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\n"
                + "Content-Type: image/png\r\n\r\n"
            let tail = "\r\n" + field("latitude", "40.6303") + field("longitude", "-8.6575") + field("accuracy", "{}")
                + "--\(boundary)--\r\n"
            var body = Data(head.utf8)
            body.append(try h.framePNG("A1"))
            body.append(Data(tail.utf8))
            let photo = try await client.call(.post, "/api/claims/photo", token: cy.token, raw: body,
                                              contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(photo.status == .badRequest && photo.error == "bad-form", "\(photo.text)")
        }
    }
}

@Suite("Multipart bodies that crashed multipart-kit")
struct PhotoFormHeaderTests {
    /// schemathesis sent this body: a part header name with a non-ASCII byte, which traps
    /// multipart-kit 4.7.1's parser. The server answers 400 and keeps serving.
    @Test func aNonASCIIHeaderNameIsRefusedNotACrash() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let boundary = "085f3e8d07cdd0b7b9516be111a5d528"
            for body in ["--\(boundary)\r\nVø--\(boundary)--\r\n",
                         "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"\r\nX-é: 1\r\n\r\nabc\r\n--\(boundary)--\r\n"] {
                let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: Data(body.utf8),
                                                  contentType: "multipart/form-data; boundary=\(boundary)")
                #expect(reply.status == .badRequest && reply.error == "bad-form", "\(reply.text)")
            }
            // A UTF-8 file name is a header value, not a name: it still reaches the decoder.
            let named = "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"café.png\"\r\n\r\n"
            var body = Data(named.utf8)
            body.append(try h.framePNG("A1"))
            body.append(Data("\r\n--\(boundary)--\r\n".utf8))
            let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: body,
                                              contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(reply["verdict"] as? String == "no-location", "\(reply.text)")
        }
    }
}
