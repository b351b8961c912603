/// A recognizer's state, as in UIKit's `UIGestureRecognizer.State`.
package enum RecognizerState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Watching touches; nothing recognised yet.
    case possible
    case began
    case changed
    case ended
    case cancelled
    /// The touches were not this gesture; it never began.
    case failed
}

/// The legal paths through `RecognizerState`:
///
///     possible -> began -> changed* -> ended | cancelled
///     possible -> failed
///     ended | cancelled | failed -> possible   (reset, ready for the next gesture)
///
/// Every method that would take an illegal step leaves the state alone and returns nil, so a
/// recognizer built on it cannot emit a `changed` without a `began`, or a second `ended`.
package struct GestureLifecycle: Sendable, Hashable {
    package private(set) var state: RecognizerState = .possible

    package init() {}

    /// True between `began` and the final `ended`/`cancelled`: an end is still owed.
    var isInFlight: Bool { state == .began || state == .changed }

    /// possible -> began.
    package mutating func begin() -> GestureState? {
        guard state == .possible else { return nil }
        state = .began
        return .began
    }

    /// began | changed -> changed.
    package mutating func change() -> GestureState? {
        guard isInFlight else { return nil }
        state = .changed
        return .changed
    }

    /// began | changed -> ended.
    package mutating func end() -> GestureState? {
        guard isInFlight else { return nil }
        state = .ended
        return .ended
    }

    /// began | changed -> cancelled.
    package mutating func cancel() -> GestureState? {
        guard isInFlight else { return nil }
        state = .cancelled
        return .cancelled
    }

    /// possible -> failed.
    package mutating func fail() -> Bool {
        guard state == .possible else { return false }
        state = .failed
        return true
    }

    /// possible -> failed, and nothing past `possible`: the touches turned out to be something else,
    /// which tells only a kind that has not begun (one that began keeps its ending, one that failed
    /// stays failed).
    mutating func failIfPossible() {
        if state == .possible { state = .failed }
    }

    /// ended | cancelled | failed -> possible. Refused while a gesture is in flight, so a began can
    /// never be dropped without its end.
    package mutating func reset() -> Bool {
        guard !isInFlight else { return false }
        state = .possible
        return true
    }
}
