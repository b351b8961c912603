import Foundation
import GestureCore
import InteractiveTransition
import Testing

/// The getting-started articles' code, run as a test. This file is the source of truth: each
/// article in Sources/<library>/<library>.docc/GettingStarted.md shows the lines between
/// `// snippet: NAME` and `// end snippet` verbatim, and `theArticlesShowThisCode` fails when they
/// differ.
@Suite struct GettingStartedTests {
    @Test func aPinchDrivesTheTransitionToADecision() throws {
        // snippet: frames
        // Two fingers 40 mm apart on a touchpad pinch together for 300 ms, 10 ms a frame, then lift.
        func frame(atMS ms: Int, span: Double, phase: TouchPhase) -> TouchFrame {
            var frame = TouchFrame(time: EventTime(totalMicroseconds: Int64(ms) * 1000), fingerCount: 2)
            let centre = PointMM(x: 50, y: 30)
            _ = frame.append(Touch(id: 1, trackingID: 1, slot: 0, phase: phase,
                                   position: PointMM(x: centre.x - span / 2, y: centre.y)))
            _ = frame.append(Touch(id: 2, trackingID: 2, slot: 1, phase: phase,
                                   position: PointMM(x: centre.x + span / 2, y: centre.y)))
            return frame
        }
        var frames = [frame(atMS: 0, span: 40, phase: .began)]
        for step in 1...30 { frames.append(frame(atMS: step * 10, span: 40 - Double(step), phase: .moved)) }
        var lift = TouchFrame(time: EventTime(totalMicroseconds: 310_000), fingerCount: 0)
        for touch in frames[frames.count - 1].touches {
            var lifted = touch
            lifted.phase = .ended
            _ = lift.append(lifted)
        }
        frames.append(lift)
        // end snippet

        // snippet: recognize
        var recognizer = TouchGestureRecognizer(configuration: .default)
        var events: [GestureEvent] = []
        for frame in frames {
            events.append(contentsOf: recognizer.process(frame))
        }
        events.append(contentsOf: recognizer.finish(at: lift.time))

        let began = try #require(events.first { $0.kind == .pinch && $0.state == .began })
        print("pinch began at \(began.time) by rule \(began.decision?.rule.rawValue ?? "-")")
        // end snippet
        #expect(began.decision?.rule.rawValue == "opposing-fingers")
        #expect(events.last?.kind == .pinch && events.last?.state == .ended)

        // snippet: transition
        // Pinch to dismiss: progress is how far the card has shrunk, 1 - scale.
        let spec = try TransitionCatalog().pinchDismiss()
        var transition = try PercentDrivenTransition(spec: spec)
        var decision: CompletionDecision?
        for event in events where event.kind == .pinch {
            let seconds = Double(event.time.seconds) + Double(event.time.microseconds) / 1_000_000
            let progress = min(max(1 - event.scale, 0), 1)
            switch event.state {
            case .began:
                _ = transition.begin(at: seconds)
            case .changed:
                _ = transition.update(progress, at: seconds)
            case .ended:
                // The policy decides from the progress and its velocity (progress per second).
                decision = transition.end(at: seconds, velocity: -event.scaleVelocity, policy: .default)
            case .cancelled:
                _ = transition.cancel(at: seconds)
            }
        }
        // end snippet

        // snippet: decision
        let made = try #require(decision)
        print(made.shouldFinish ? "finish" : "cancel", made.reason.rule, made)
        if case .projected(let projectedProgress, let threshold) = made.reason {
            print("margin:", projectedProgress - threshold)  // > 0 finishes, < 0 cancels
        }
        // Let the completion animate to its end: the context is completed exactly once.
        var time = 0.31
        while transition.tick(at: time) != .finished && transition.phase != .cancelled { time += 1.0 / 60 }
        print(transition.phase, transition.context.didComplete ?? false)
        // end snippet
        #expect(made.shouldFinish, "a quick pinch to 3/4 of its span flicks the card away: \(made)")
        #expect(transition.phase == .finished)
        #expect(transition.context.completeTransitionCallCount == 1)
    }

    /// Each article's code blocks are this file's snippets, in order.
    @Test(arguments: [("GestureCore", ["frames", "recognize"]), ("InteractiveTransition", ["transition", "decision"]),
                      ("GestureLab", ["frames", "recognize", "transition", "decision"])])
    func theArticlesShowThisCode(library: String, snippets: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let article = try String(contentsOf: root.appendingPathComponent("Sources/\(library)/\(library).docc/GettingStarted.md"),
                                 encoding: .utf8)
        #expect(Self.codeBlocks(in: article) == snippets.map { Self.snippet($0, in: source) })
    }

    /// The lines between `// snippet: NAME` and `// end snippet`, indentation of the first removed.
    static func snippet(_ name: String, in source: String) -> String {
        let lines = source.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// snippet: \(name)" }),
              let end = lines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// end snippet" })
        else { return "missing snippet \(name)" }
        let body = lines[(start + 1)..<end]
        let indent = body.first.map { $0.prefix { $0 == " " }.count } ?? 0
        return body.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
    }

    /// The ```swift blocks of a Markdown text.
    static func codeBlocks(in text: String) -> [String] {
        var blocks: [String] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```swift" { current = [] }
            else if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n")); current = nil }
            else if current != nil { current!.append(line) }
        }
        return blocks
    }
}
