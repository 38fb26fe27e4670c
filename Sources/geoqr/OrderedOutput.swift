import Foundation

/// Results finished by parallel workers in any order, written in input order as soon as every
/// earlier one is done: a long batch streams instead of waiting for its end.
final class OrderedOutput<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Int: Result] = [:]
    private var next = 0
    private let write: (Result) -> Void

    init(write: @escaping (Result) -> Void) { self.write = write }

    func deliver(_ result: Result, at index: Int) {
        lock.withLock {
            pending[index] = result
            while let ready = pending.removeValue(forKey: next) {
                write(ready)
                next += 1
            }
        }
    }
}
