import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QRImaging
import Testing
import Workers
@testable import HuntServer

/// Issue 24 §1: the photo form is read in one linear pass with small limits.
@Suite struct PhotoFormParserTests {
    static let boundary = "----geoqr7MA4YWxkTrZu0gW"

    static func form(_ parts: [(name: String, body: Data)], boundary: String = boundary) -> Data {
        var data = Data()
        for part in parts {
            let filename = part.name == "photo" ? "; filename=\"a;b.jpg\"" : ""
            data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(filename)\r\n".utf8))
            if part.name == "photo" { data.append(Data("Content-Type: image/jpeg\r\n".utf8)) }
            data.append(Data("\r\n".utf8))
            data.append(part.body)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }

    static func parse(_ data: Data, boundary: String = boundary) throws(PhotoForm.Problem) -> PhotoForm {
        try PhotoForm.decode(ByteBuffer(bytes: data), boundary: boundary)
    }

    @Test func aPhoneFormIsRead() throws {
        let photo = Data([0xFF, 0xD8, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D, 0x00])   // a CR LF -- inside the photo
        let form = try Self.parse(Self.form([("latitude", Data("40.6303".utf8)), ("photo", photo),
                                             ("longitude", Data("-8.6575".utf8)), ("accuracy", Data("12".utf8)),
                                             ("comment", Data("skipped".utf8))]))
        #expect(form == PhotoForm(photo: photo, latitude: "40.6303", longitude: "-8.6575", accuracy: "12"))
    }

    @Test func theBoundaryIsReadFromTheContentType() {
        #expect(PhotoForm.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(PhotoForm.boundary(contentType: "multipart/form-data; boundary=\"a b\"") == "a b")
        #expect(PhotoForm.boundary(contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"a;b\"") == "a;b")
        #expect(PhotoForm.boundary(contentType: "multipart/form-data") == nil)
        #expect(PhotoForm.boundary(contentType: "application/json; boundary=abc") == nil)
        #expect(PhotoForm.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
    }

    /// The form of the issue: 40,000 tiny parts (2.3 MB), which took multipart-kit 36 s. The
    /// parser stops at the ninth part.
    @Test func fortyThousandPartsAreRefused() {
        let parts = (0..<40_000).map { (name: "f\($0)", body: Data("x".utf8)) }
        let body = Self.form(parts)
        #expect(body.count > 2_000_000)
        #expect(throws: PhotoForm.Problem.tooManyParts) { try Self.parse(body) }
    }

    /// Linear time, shown by size: a photo of 8 MB that is nothing but near-misses of the
    /// delimiter (CR LF -- and the boundary less its last character, 100,000 times over). A
    /// search that restarted at each of them, or compared each again, would take minutes.
    @Test func nearMissesOfTheDelimiterCostOnePass() throws {
        let nearMiss = Data("\r\n--\(Self.boundary.dropLast())".utf8)
        var photo = Data([0xFF, 0xD8, 0xFF])
        while photo.count < 8_000_000 { photo.append(nearMiss) }
        let form = try Self.parse(Self.form([("photo", photo)]))
        #expect(form.photo == photo)
    }

    @Test func limitsHaveSentences() {
        let photo = (name: "photo", body: Data([0xFF, 0xD8, 0xFF]))
        #expect(throws: PhotoForm.Problem.fieldTooLong("latitude")) {
            try Self.parse(Self.form([photo, ("latitude", Data(repeating: 0x31, count: 65))]))
        }
        #expect(throws: PhotoForm.Problem.repeated("photo")) { try Self.parse(Self.form([photo, photo])) }
        // Invalid UTF-8 is refused, not widened past the limit by replacement characters.
        #expect(throws: PhotoForm.Problem.notText("latitude")) {
            try Self.parse(Self.form([photo, ("latitude", Data(repeating: 0xFF, count: PhotoForm.maxFieldBytes))]))
        }
        #expect(throws: PhotoForm.Problem.noPhoto) { try Self.parse(Self.form([("latitude", Data("1".utf8))])) }
        let longHeader = Data("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"photo\"\r\nX-Pad: \(String(repeating: "p", count: 2000))\r\n\r\nabc\r\n--\(Self.boundary)--\r\n".utf8)
        #expect(throws: PhotoForm.Problem.headersTooLong) { try Self.parse(longHeader) }
        #expect(throws: PhotoForm.Problem.malformed("no boundary")) { try Self.parse(Data("hello".utf8)) }
        #expect(PhotoForm.Problem.tooManyParts.description == "the form has more than 8 parts")
    }
}

/// Issue 24 §1 through the API: refusals are one JSON line, and nothing of a bomb is kept.
@Suite struct HeavyWorkAPITests {
    @Test func aFormOfFortyThousandPartsIsA400() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let parts = (0..<40_000).map { (name: "f\($0)", body: Data("x".utf8)) }
            let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: PhotoFormParserTests.form(parts),
                                              contentType: "multipart/form-data; boundary=\(PhotoFormParserTests.boundary)")
            #expect(reply.status == .badRequest && reply.error == "bad-form", "\(reply.text)")
            #expect(reply["message"] as? String == "the form has more than 8 parts")
        }
    }

    @Test func aPNGBombIsRefusedAndWritesNoEvent() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let before = try await h.session.store.events(after: 0, limit: 1000).count
            let bomb = try PNGCodec.encode(GrayImage(width: 7071, height: 7071), bilevel: true)
            let form = PhotoFormParserTests.form([("photo", bomb), ("latitude", Data("40.6303".utf8)), ("longitude", Data("-8.6575".utf8))])
            let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: form,
                                              contentType: "multipart/form-data; boundary=\(PhotoFormParserTests.boundary)")
            #expect(reply.status == .unprocessableContent && reply.error == "bad-picture", "\(reply.text)")
            #expect((reply["message"] as? String)?.contains("limit for PNG pictures") == true)
            let frame = try await client.call(.post, "/api/claims/frame?latitude=40.6303&longitude=-8.6575", token: di.token,
                                              raw: bomb, contentType: "image/png")
            #expect(frame.status == .unprocessableContent && frame.error == "bad-picture")
            let report = try await client.call(.post, "/api/reports", token: di.token,
                                               json: ["cache": "A1", "kind": "missing", "photo": bomb.base64EncodedString()])
            #expect(report.status == .unprocessableContent && report.error == "bad-picture")
            #expect(try await h.session.store.events(after: 0, limit: 1000).count == before)
        }
    }

    /// A report photo is kept as a small JPEG, never as sent.
    @Test func aReportPhotoIsKeptAsAThumbnail() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let upload = try PNGCodec.encode(GrayImage(width: 2000, height: 1500, fill: 90))
            let reply = try await client.call(.post, "/api/reports", token: di.token,
                                              json: ["cache": "A1", "kind": "missing", "photo": upload.base64EncodedString()])
            #expect(reply.status == .created, "\(reply.text)")
            let sha = try #require(reply["photoSHA256"] as? String)
            let kept = try #require(h.session.reportPhotos?.photo(sha256: sha))
            #expect(kept.type == "image/jpeg" && kept.bytes != upload)
            let picture = try Picture(data: kept.bytes)
            #expect(max(picture.width, picture.height) <= 640 && picture.width == 2000 / 4)
        }
    }

    @Test func aFullPoolIsA503WithRetryAfterAndABusyPlayerA429() {
        let full = APIError.from(WorkerPoolError.full(pool: "pictures", retryAfter: 2) as any Error)
        #expect(full.status == .serviceUnavailable && full.code == "server-busy")
        #expect(full.headers[.retryAfter] == "2")
        #expect(full.message == "the server is busy with other pictures; try again in 2 s")
        let busy = APIError.from(WorkerPoolError.ownerBusy(pool: "pictures") as any Error)
        #expect(busy.status == .tooManyRequests && busy.code == "one-at-a-time" && busy.headers[.retryAfter] == "1")
    }
}
