/// The events one frame produced, stored inline so that `process(_:)` never allocates.
///
/// A frame yields at most three events by construction (a finger-count debounce or a hold timeout
/// that ran out before it, then a hold cancelled by motion and a pan or pinch beginning, or a
/// corrected scroll cancelled and a pinch beginning); the capacity leaves room to spare.
public struct GestureEvents: RandomAccessCollection, Sendable {
    /// The most events one frame can give.
    public static let capacity = 4

    private var storage = InlineArray<4, GestureEvent>(repeating: .placeholder)
    /// How many events it holds.
    public private(set) var count = 0

    /// No events.
    public init() {}

    /// The first event's index, 0.
    public var startIndex: Int { 0 }
    /// One past the last event's index.
    public var endIndex: Int { count }
    /// The event at index `i`, in the order they happened.
    public subscript(i: Int) -> GestureEvent {
        precondition(i >= 0 && i < count, "gesture event index out of range")
        return storage[i]
    }

    /// Event `i`, read in place: mutating though it changes nothing, because the subscript, given a
    /// borrowed buffer, copies the whole storage (1 KiB) to index it, then the event twice. For a
    /// caller that keeps the buffer from frame to frame (`ReplayPipeline`).
    package mutating func event(at i: Int) -> GestureEvent {
        precondition(i >= 0 && i < count, "gesture event index out of range")
        return storage.span[i]
    }

    mutating func append(_ event: GestureEvent) {
        assert(count < Self.capacity, "more gesture events in one frame than GestureEvents.capacity")
        guard count < Self.capacity else { return }
        storage[count] = event
        count += 1
    }

    /// Empties it; the storage stays as it is (only `count` says what is in it).
    @inline(__always)
    mutating func removeAll() { count = 0 }

    mutating func append(contentsOf other: GestureEvents) {
        for e in other { append(e) }
    }
}
