/// One thing wrong with a hunt file, located by file and field path.
///
/// ```swift
/// HuntProblem(file: "caches/demo.json", path: "caches[3].lat", message: "95 is not a latitude (-90…90)")
/// // caches/demo.json: caches[3].lat: 95 is not a latitude (-90…90)
/// ```
public struct HuntProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var file: String
    /// Field path in the document, e.g. `caches[3].lat`; empty for the file as a whole.
    public var path: String
    public var message: String
    public var severity: Severity

    public init(file: String, path: String, message: String, severity: Severity = .error) {
        self.file = file
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var description: String {
        let location = path.isEmpty ? file : "\(file): \(path)"
        return severity == .warning ? "\(location): warning: \(message)" : "\(location): \(message)"
    }
}

/// A hunt file that cannot be used, with every error found in it (warnings are not errors).
public struct HuntFileError: Error, Sendable, CustomStringConvertible {
    public var problems: [HuntProblem]

    public init(_ problems: [HuntProblem]) { self.problems = problems }

    /// The first error on one line, and how many more there are.
    public var description: String {
        let errors = problems.filter { $0.severity == .error }
        guard let first = errors.first else { return "hunt file has problems" }
        return errors.count == 1 ? first.description : "\(first) (and \(errors.count - 1) more errors)"
    }
}

/// A hunt read from a file, with the warnings that did not stop it being used.
public struct ParsedHunt: Sendable {
    public var hunt: Hunt
    public var warnings: [HuntProblem]
}
