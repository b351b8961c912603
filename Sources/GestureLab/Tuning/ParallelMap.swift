import Foundation

/// `transform` applied to every element on all cores (`DispatchQueue.concurrentPerform`), the
/// results in the elements' order; the first error thrown is rethrown once all have run (a
/// transform that throws nothing makes a call that throws nothing). Each result is written once,
/// into its place in the returned array: no second array of results, so the peak is the results
/// and one byte an element.
func parallelMap<Element: Sendable, Result, Failure: Error>(_ elements: [Element], _ transform: @Sendable (Element) throws(Failure) -> Result)
    throws(Failure) -> [Result] {
    let failures = FailureSlot<Failure>()
    let results = [Result](unsafeUninitializedCapacity: elements.count) { buffer, initializedCount in
        let places = ResultPlaces(buffer, count: elements.count)
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            do throws(Failure) {
                places.initialize(index, to: try transform(elements[index]))
            } catch {
                failures.record(error, at: index)
            }
        }
        if failures.first == nil {
            initializedCount = elements.count
        } else {
            places.deinitializeAll()
            initializedCount = 0
        }
    }
    if let failure = failures.first { throw failure }
    return results
}

/// The returned array's uninitialized places, each written once from a concurrent iteration (no
/// two iterations share a place, so no lock), and which were written.
private final class ResultPlaces<T>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<T>
    private let written: UnsafeMutableBufferPointer<Bool>

    init(_ buffer: UnsafeMutableBufferPointer<T>, count: Int) {
        self.buffer = buffer
        written = .allocate(capacity: count)
        written.initialize(repeating: false)
    }

    deinit { written.deallocate() }

    func initialize(_ index: Int, to value: T) {
        (buffer.baseAddress! + index).initialize(to: value)
        written[index] = true
    }

    func deinitializeAll() {
        for index in written.indices where written[index] { (buffer.baseAddress! + index).deinitialize(count: 1) }
    }
}

/// The error of the lowest-numbered element that threw, whichever thread saw it first.
private final class FailureSlot<Failure: Error>: @unchecked Sendable {
    private var failure: (index: Int, error: Failure)?
    private let lock = NSLock()

    func record(_ error: Failure, at index: Int) {
        lock.lock()
        if failure.map({ index < $0.index }) ?? true { failure = (index, error) }
        lock.unlock()
    }

    var first: Failure? { lock.lock(); defer { lock.unlock() }; return failure?.error }
}
