import CXML2
import Foundation

/// A streamed XML document: one event at a time from libxml2's pull reader, so a GPX file of any
/// size is read in the memory of one element, never as a tree.
///
/// The document may not carry a DTD: GPX never needs one, and refusing it is what keeps external
/// entities (`<!ENTITY x SYSTEM "file:///etc/passwd">`) and entity expansion ("billion laughs")
/// out. The reader is also opened without entity substitution, DTD loading or network access, so
/// even the part of libxml2 that runs before the DOCTYPE is seen never fetches anything.
///
/// ```swift
/// let stream = try XMLStream(file: "pq.gpx")
/// while let event = try stream.next() {
///     if case .start(let element) = event { print(element.line, element.name) }
/// }
/// ```
public final class XMLStream {
    /// One step through the document.
    public enum Event: Sendable {
        case start(XMLElementStart)
        /// Character data (text or CDATA) inside the current element.
        case text(String)
        case end
    }

    private let reader: xmlTextReaderPtr
    private let buffer: UnsafeMutableRawPointer?
    private let errors = ErrorSink()
    /// Name used in error messages (`FILE:LINE: ...`).
    public let documentName: String
    private var pendingEnd = false

    /// Streams a file from disk.
    public init(file path: String, name: String? = nil) throws(XMLStreamError) {
        documentName = name ?? path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw XMLStreamError(document: documentName, line: nil, message: "cannot read the file")
        }
        guard let r = xmlReaderForFile(path, nil, Self.options) else {
            throw XMLStreamError(document: documentName, line: nil, message: "cannot open the file")
        }
        reader = r
        buffer = nil
        installErrorSink()
    }

    /// Streams a document already in memory (an entry taken out of a zip).
    public init(data: Data, name: String) throws(XMLStreamError) {
        documentName = name
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
        guard let r = xmlReaderForMemory(copy.assumingMemoryBound(to: CChar.self), Int32(data.count), nil, nil, Self.options) else {
            copy.deallocate()
            throw XMLStreamError(document: name, line: nil, message: "cannot start the XML reader")
        }
        reader = r
        buffer = copy
        installErrorSink()
    }

    deinit {
        xmlFreeTextReader(reader)
        buffer?.deallocate()
    }

    /// No entity substitution, no DTD loading or defaulted attributes, no network; line numbers
    /// past 65,535 kept; libxml2's own size limits left on (no XML_PARSE_HUGE).
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)

    private func installErrorSink() {
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
            sink.record(error.pointee)
        }, Unmanaged.passUnretained(errors).toOpaque())
    }

    /// The next event, or nil at the end of the document.
    public func next() throws(XMLStreamError) -> Event? {
        if pendingEnd { pendingEnd = false; return .end }
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { return nil }
            if status < 0 { throw failure(fallback: "is not well-formed XML") }
            switch UInt32(clamping: xmlTextReaderNodeType(reader)) {
            case XML_READER_TYPE_ELEMENT.rawValue:
                pendingEnd = xmlTextReaderIsEmptyElement(reader) == 1
                return .start(elementStart())
            case XML_READER_TYPE_END_ELEMENT.rawValue:
                return .end
            case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue,
                 XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue:
                return .text(string(xmlTextReaderConstValue(reader)))
            case XML_READER_TYPE_DOCUMENT_TYPE.rawValue:
                // libxml2 keeps no line for a DOCTYPE, and its parser position may be past it.
                throw XMLStreamError(document: documentName, line: nil,
                                     message: "has a DOCTYPE before <gpx>; DTDs and entities are refused (GPX does not use them)")
            case XML_READER_TYPE_ENTITY_REFERENCE.rawValue:
                throw XMLStreamError(document: documentName, line: currentLine,
                                     message: "uses entity &\(string(xmlTextReaderConstName(reader)));, which is refused")
            default:
                continue   // comments, processing instructions, insignificant whitespace
            }
        }
    }

    /// The line of the node the reader is on (1-based), when libxml2 knows it.
    public var currentLine: Int? {
        guard let node = xmlTextReaderCurrentNode(reader) else { return nil }
        let line = Int(xmlGetLineNo(node))
        return line > 0 ? line : nil
    }

    private func failure(fallback: String) -> XMLStreamError {
        if let first = errors.first {
            return XMLStreamError(document: documentName, line: first.line, message: "is not well-formed XML: \(first.message)")
        }
        return XMLStreamError(document: documentName, line: currentLine, message: fallback)
    }

    private func elementStart() -> XMLElementStart {
        let name = string(xmlTextReaderConstLocalName(reader))
        let namespace = string(xmlTextReaderConstNamespaceUri(reader))
        let line = currentLine ?? 0
        var attributes: [String: String] = [:]
        if xmlTextReaderHasAttributes(reader) == 1 {
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                let uri = string(xmlTextReaderConstNamespaceUri(reader))
                if uri == "http://www.w3.org/2000/xmlns/" { continue }
                attributes[string(xmlTextReaderConstLocalName(reader))] = string(xmlTextReaderConstValue(reader))
            }
            xmlTextReaderMoveToElement(reader)
        }
        return XMLElementStart(name: name, namespace: namespace, attributes: attributes, line: line)
    }

    private func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }
}

/// The opening tag of an element, with its namespace resolved and where it was.
public struct XMLElementStart: Sendable, Equatable {
    /// Local name, without prefix (`cache` for `groundspeak:cache`).
    public var name: String
    /// Namespace URI, empty when the element has none.
    public var namespace: String
    /// Attributes by local name (namespace declarations left out).
    public var attributes: [String: String]
    /// 1-based line of the tag.
    public var line: Int
}

/// XML that could not be read, with the document and line: `pq.gpx:12: is not well-formed XML: ...`.
public struct XMLStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public var document: String
    public var line: Int?
    public var message: String

    public var description: String {
        if let line { return "\(document):\(line): \(message)" }
        return "\(document): \(message)"
    }
}

/// Collects libxml2's first error; libxml2 calls it from inside `xmlTextReaderRead`.
private final class ErrorSink {
    struct Entry { var message: String; var line: Int? }
    private(set) var first: Entry?

    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let text = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        first = Entry(message: trimmed, line: error.line > 0 ? Int(error.line) : nil)
    }
}
