import Foundation
import GeoQR
import Interchange

// IOF XML 3.0 course data as an import would read it: the document streamed by libxml2's
// reader into controls and courses, those made a hunt, the hunt written back as CourseData and
// read again. What the writer writes the reader must read, to the same courses: a hunt whose
// export does not read back is a bug, not bad input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIOF(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let hunt: Hunt
    do {
        hunt = try IOFCourseReader.read(data, file: "fuzz.xml").hunt(id: "FUZZ", name: "Fuzzed courses")
    } catch {
        _ = error.description
        return 0
    }
    let written = IOFWriter.courseData(hunt, created: Date(timeIntervalSince1970: 0))
    do {
        let again = try IOFCourseReader.read(Data(written.utf8), file: "again.xml").hunt(id: "FUZZ", name: hunt.name)
        precondition(again.courses == hunt.courses,
                     "courses differ after export:\n\(hunt.courses)\n\(again.courses)\n\(written)")
    } catch {
        preconditionFailure("exported course data does not read back: \(error)\n\(written)")
    }
    return 0
}
