import Foundation
import QRImaging

/// Decodes many pictures on every core: each worker owns its `PictureDecoder` (zbar scanners
/// are not thread-safe) and takes the next file when it is free, so one slow picture does not
/// hold up a fixed share of the batch.
struct DecodeBatch: Sendable {
    let inputs: [PictureInput]
    let symbologies: Set<Symbology>
    let passes: [DecodePass]
    let findAll: Bool
    let limits: PictureLimits
    let jobs: Int

    /// Decodes every input, delivering reports in input order; returns how many files had a code.
    func run(into output: OrderedOutput<DecodeReport>) -> Int {
        let queue = WorkQueue(count: inputs.count)
        let progress = Progress(label: "images", total: inputs.count)
        let workers = max(1, min(jobs, inputs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let decoder = PictureDecoder(symbologies: symbologies, passes: passes, findAll: findAll)
            while let i = queue.next() {
                let report = decode(inputs[i], with: decoder)
                queue.finished(withCode: !report.codes.isEmpty)
                output.deliver(report, at: i)
                if inputs.count > 1 { progress.update(queue.done) }
            }
        }
        return queue.withCodes
    }

    private func decode(_ input: PictureInput, with decoder: PictureDecoder) -> DecodeReport {
        do {
            let data = try input.read(limit: limits.maxFileBytes)
            return DecodeReport(file: input.path, decoded: try decoder.decode(fileBytes: data, limits: limits))
        } catch let error as PictureFileError {
            return DecodeReport(file: input.path, error: error.description)
        } catch {
            return DecodeReport(file: input.path, error: "\(error)")
        }
    }
}

/// Hands out indices to workers and counts what they finished, behind a lock.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var issued = 0, finished = 0, codes = 0

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.withLock {
            guard issued < count else { return nil }
            issued += 1
            return issued - 1
        }
    }

    func finished(withCode: Bool) {
        lock.withLock {
            finished += 1
            if withCode { codes += 1 }
        }
    }

    var done: Int { lock.withLock { finished } }
    var withCodes: Int { lock.withLock { codes } }
}
