import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

// Written with `JSONWriter` rather than `JSONEncoder`: encoding the answers every phone polls
// by reflection took more of the server's time than everything else those requests do (a `perf`
// profile under Benchmarks/server.sh). The JSON means the same as `JSONEncoder`'s:
// `ServerCachingTests` parses both and compares.

/// The phone's answer to a claim: the best of the claim's answers (``Play/ClaimAnswers/best``),
/// written from ``Play/ClaimAnswer/fields`` like every other claim answer.
struct ClaimAnswerResponse: ResponseGenerator {
    let answer: ClaimAnswer

    init(_ answers: ClaimAnswers) { answer = answers.best }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var json = JSONWriter()
        answer.write(to: &json, in: RequestLanguage.current)
        return .json(json)
    }
}

extension Response {
    /// 200 with the written JSON, labelled as Hummingbird labels `JSONEncoder`'s.
    static func json(_ json: JSONWriter) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: json.bytes)))
    }
}
