import Foundation

/// Reads a cache's `challenge` in a hunt file (``Challenge``).
enum ChallengeReader {
    private static let fields: Set = ["question", "answers", "choices", "photo", "points", "penalty", "tries"]

    static func challenge(_ value: JSONValue, at path: String, _ r: FieldReader) -> Challenge? {
        if value == .null { return nil }
        guard let object = r.object(value, at: path, what: "a challenge (JSON object)") else { return nil }
        r.rejectUnknown(object, allowed: fields, at: path)
        let points = r.number(object, "points", at: path, range: 0...1_000_000, integer: true).map { Int($0) } ?? 0
        let penalty = r.number(object, "penalty", at: path, range: 0...1_000_000, integer: true).map { Int($0) } ?? 0
        let tries = r.number(object, "tries", at: path, range: 1...100, integer: true).map { Int($0) } ?? Challenge.standardTries
        let question = r.text(object, "question", at: path, required: false)
        let photo = r.text(object, "photo", at: path, required: false)
        switch (question, photo) {
        case (nil, nil):
            r.fail(path, "has neither a question nor a photo task (\"question\" or \"photo\")")
            return nil
        case (.some, .some):
            r.fail("\(path).photo", "is set beside a question; a challenge is one or the other")
            return nil
        case (nil, let task?):
            for key in ["answers", "choices", "penalty", "tries"] where object[key] != nil {
                r.fail("\(path).\(key)", "is for questions; a photo task is approved by the game master")
            }
            return Challenge(kind: .photo(task: task), points: points)
        case (let prompt?, nil):
            let choices = texts(object["choices"], at: "\(path).choices", r) ?? []
            guard let answers = texts(object["answers"], at: "\(path).answers", r) else {
                if object["answers"] == nil { r.fail("\(path).answers", "is missing; a question needs its accepted answers") }
                return nil
            }
            if answers.isEmpty { r.fail("\(path).answers", "is empty; a question needs at least one accepted answer"); return nil }
            for (i, answer) in answers.enumerated() {
                if Challenge.normalised(answer).isEmpty {
                    r.fail("\(path).answers[\(i)]", "\"\(answer)\" has no letters or digits, so no answer can match it")
                } else if !choices.isEmpty, !choices.contains(where: { Challenge.normalised($0) == Challenge.normalised(answer) }) {
                    r.fail("\(path).answers[\(i)]", "\"\(answer)\" is not one of the choices")
                }
            }
            return Challenge(kind: .question(prompt: prompt, answers: answers, choices: choices), points: points,
                             penalty: penalty, tries: tries)
        }
    }

    private static func texts(_ value: JSONValue?, at path: String, _ r: FieldReader) -> [String]? {
        guard let value, value != .null else { return nil }
        guard let items = r.array(value, at: path) else { return nil }
        var list: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let text) = item, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                r.fail("\(path)[\(i)]", "\(item.shortDescription) is not a text"); continue
            }
            list.append(text)
        }
        return list
    }
}
