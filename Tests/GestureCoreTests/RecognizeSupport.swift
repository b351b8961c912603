import PinchlabTestSupport
import Testing
@testable import GestureCore

// How the recognizer tests run a script: the frames from PinchlabTestSupport's builders through a
// recognizer, the stream finished after the last frame, the order checked.

/// Holds are off unless `holds` (most tests are about pinch and pan; `RecognizerHoldTests` turn them on).
func recognize(_ frames: [TouchFrame], configuration: GestureRecognizerConfiguration = .default, holds: Bool = false,
               finish: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> [GestureEvent] {
    var recognizer = TouchGestureRecognizer(configuration: holds ? configuration : configuration.withoutHolds)
    var events: [GestureEvent] = []
    for f in frames { events.append(contentsOf: recognizer.process(f)) }
    if finish, let last = frames.last {
        events.append(contentsOf: recognizer.finish(at: last.time.adding(milliseconds: 1)))
    }
    checkInvariants(events, sourceLocation: sourceLocation)
    return events
}

/// The checks of `GestureOrderChecker` on a whole stream.
func checkInvariants(_ events: [GestureEvent], sourceLocation: SourceLocation = #_sourceLocation) {
    var checker = GestureOrderChecker()
    checker.check(events)
    checker.finish()
    #expect(checker.violations == [], sourceLocation: sourceLocation)
}

extension GestureRecognizerConfiguration {
    /// The same with holds turned off (minimum above maximum).
    var withoutHolds: GestureRecognizerConfiguration {
        var c = self
        c.holdMinimumFingerCount = 99
        c.holdMaximumFingerCount = 0
        return c
    }
}
