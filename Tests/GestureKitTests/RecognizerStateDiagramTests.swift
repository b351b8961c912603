import Foundation
import PinchlabTestSupport
import Testing
@testable import GestureCore
@testable import GestureKit

/// docs/recognizer-states.md is the specification: its table of edges (from, input, to, rule) is the
/// code's (`TouchGestureRecognizer.edges`), every edge is taken by the corpus, the scripted gestures
/// and a fault, the end, a click and a lift from every state, and every pair it names a bug is counted
/// as one.
@Suite struct RecognizerStateDiagramTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func document() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/recognizer-states.md"), encoding: .utf8)
    }

    /// The cells of the document's table rows (`| a | b | ... |`).
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The `| from | input | to | rule |` rows of the document.
    static func documentedEdges() throws -> [RecognizerEdge] {
        try rows(document()).compactMap { cells in
            guard cells.count == 4, let from = RecognizerMode(rawValue: cells[0]),
                  let input = RecognizerInput(rawValue: cells[1]), let to = RecognizerMode(rawValue: cells[2]) else { return nil }
            let rule = cells[3] == "-" ? nil : GestureRule(rawValue: cells[3])
            #expect(cells[3] == "-" || rule != nil, "no such rule: \(cells[3])")
            return RecognizerEdge(from, input, to, rule)
        }
    }

    /// The bug column of the `| state | changes nothing | bug |` rows.
    static func documentedBugs() throws -> [RecognizerMode: [RecognizerInput]] {
        var bugs: [RecognizerMode: [RecognizerInput]] = [:]
        for cells in try rows(document()) where cells.count == 3 {
            guard let mode = RecognizerMode(rawValue: cells[0]) else { continue }
            bugs[mode] = cells[2].split(separator: ",").map { name in
                let input = RecognizerInput(rawValue: name.trimmingCharacters(in: .whitespaces))
                #expect(input != nil, "no such input: \(name)")
                return input ?? .motion
            }
        }
        return bugs
    }

    @Test func theDocumentsTableIsTheCodesTable() throws {
        let documented = try Self.documentedEdges()
        #expect(documented.count >= 60, "the table was not found")
        #expect(Set(documented).count == documented.count, "rows listed twice")
        let code = TouchGestureRecognizer.edges
        let onlyInCode = code.subtracting(documented).map(\.description).sorted()
        let onlyDocumented = Set(documented).subtracting(code).map(\.description).sorted()
        #expect(onlyInCode.isEmpty, "edges the document lacks:\n\(onlyInCode.joined(separator: "\n"))")
        #expect(onlyDocumented.isEmpty, "documented edges the code lacks:\n\(onlyDocumented.joined(separator: "\n"))")
        #expect(try Self.documentedBugs().count == RecognizerMode.allCases.count, "a state without its row of bugs")
    }

    /// The rule tables of docs/reference/recognizer.md against the motion rules: each has a row in
    /// the table of what rules decide, saying where it leads, and one in the table of margins.
    @Test func theReferencesRuleTablesFollowTheMotionRules() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/reference/recognizer.md"), encoding: .utf8)
        let rows = Self.rows(text).filter { $0.count == 2 }
        // The order the text gives is the list's.
        let start = try #require(text.range(of: "asked in the order"))
        let end = try #require(text.range(of: "until one decides", range: start.upperBound..<text.endIndex))
        let order = text[start.upperBound..<end.lowerBound]
        let listed = order.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        #expect(listed.map { String($0.element) } == MotionRule.inOrder.map(\.name.rawValue))
        for rule in MotionRule.inOrder {
            let name = "`\(rule.name.rawValue)`"
            let named = rows.filter { $0[0].contains(name) || $0[1].contains(name) }
            #expect(named.count == 2, "\(name): \(named.count) rows, not one in each table")
            guard let decides = named.first?[1] else { continue }
            switch rule.outcome {
            case .pinch: #expect(decides.hasPrefix("pinch:"), "\(name) leads to a pinch: \(decides)")
            case .pan: #expect(decides.hasPrefix("pan:"), "\(name) leads to a pan: \(decides)")
            case .leaveOut: #expect(decides.contains("left out"), "\(name) leaves a touch out: \(decides)")
            case .leaveOutOrPan: #expect(decides.contains("left out") && decides.contains("pans"), "\(name): \(decides)")
            }
        }
    }

    #if DEBUG
    /// Every edge of the table is taken, and only those (debug builds also assert the latter in `enter`).
    @Test func everyEdgeIsTakenByTheCorpusAndTheScripts() throws {
        var taken = Set<RecognizerEdge>()
        var files = 0
        for frames in try Self.corpus() {
            Self.run(frames.frames, configuration: frames.configuration, into: &taken)
            files += 1
        }
        #expect(files >= 47)
        for script in Self.scripts() { Self.run(script.frames, configuration: script.configuration, into: &taken) }
        for scene in Self.scenes() { try Self.leave(scene, into: &taken) }

        let unlisted = taken.subtracting(TouchGestureRecognizer.edges).map(\.description).sorted()
        #expect(unlisted.isEmpty, "edges taken that the table lacks:\n\(unlisted.joined(separator: "\n"))")
        let neverTaken = TouchGestureRecognizer.edges.subtracting(taken).map(\.description).sorted()
        #expect(neverTaken.isEmpty, "edges no test takes:\n\(neverTaken.joined(separator: "\n"))")
    }

    /// Each pair the document calls a bug, fed to its state, is counted and changes nothing.
    @Test func everyDocumentedBugIsCountedAndChangesNothing() throws {
        let bugs = try Self.documentedBugs()
        for scene in Self.scenes() {
            let reached = Self.reach(scene)
            try #require(reached.mode == scene.mode)
            for name in bugs[scene.mode] ?? [] {
                var r = reached
                r.assertsOnBug = false
                var out = GestureEvents()
                r.handleForTesting(Self.input(name), at: Self.after(scene), into: &out)
                #expect(r.bugCount == reached.bugCount + 1, "\(name.rawValue) in \(scene.mode.rawValue) was not counted")
                #expect(r.mode == scene.mode, "\(name.rawValue) in \(scene.mode.rawValue) changed the state")
                #expect(out.isEmpty)
            }
        }
    }

    static func input(_ name: RecognizerInput) -> TouchGestureRecognizer.Input {
        switch name {
        case .switchTimeout: .switchTimeout
        case .holdTimeout: .holdTimeout
        case .motion: .motion
        case .fingersReplaced: .fingersReplaced
        case .buttonReleased: .buttonReleased
        case .buttonPressed: .buttonPressed(GestureDecision(.clickpadPressed))
        case .endOfStream: .endOfStream
        case .allLifted: .allLifted
        case .fingerCountChanged: .fingerCountChanged(to: 1)
        case .fault: .fault(GestureDecision(.resync), fingers: 0)
        }
    }
    #endif

    // MARK: Runs

    struct Run {
        var frames: [TouchFrame]
        var configuration: GestureRecognizerConfiguration
    }

    static func run(_ frames: [TouchFrame], configuration: GestureRecognizerConfiguration,
                    into taken: inout Set<RecognizerEdge>) {
        var r = TouchGestureRecognizer(configuration: configuration)
        #if DEBUG
        r.takenEdges = []
        #endif
        for f in frames {
            _ = r.process(f)
            readBack(r.stateChanges)
        }
        if let last = frames.last { _ = r.finish(at: last.time.adding(milliseconds: 1)) }
        #expect(r.bugCount == 0)
        #if DEBUG
        taken.formUnion(r.takenEdges ?? [])
        #endif
    }

    /// Every motion rule's decision reads back, typed, as exactly what its rule recorded: the
    /// margin and the sentences read what the judge wrote.
    static func readBack(_ changes: RecognizerStateChanges) {
        for change in changes {
            guard let decision = change.decision, MotionRule(decision.rule) != nil else { continue }
            let typed = MotionEvidence(decision)
            #expect(typed?.recorded == decision.evidence, "\(decision.rule.rawValue) does not read back: \(decision.evidence.entries)")
            #expect(typed?.rule.name == decision.rule)
        }
    }

    /// The corpus: real-shaped pinches, scrolls, swipes and pans on both device classes.
    static func corpus() throws -> [Run] {
        let corpus = root.appendingPathComponent("Fixtures/corpus")
        let walk = try #require(FileManager.default.enumerator(atPath: corpus.path))
        var runs: [Run] = []
        for case let relative as String in walk where relative.hasSuffix(".evemu") {
            var source = try openRecording(path: corpus.appendingPathComponent(relative).path)
            var assembler = TouchFrameAssembler(device: source.device)
            var frames: [TouchFrame] = []
            while let event = try source.nextEvent() {
                if let frame = assembler.consume(event) { frames.append(frame) }
            }
            runs.append(Run(frames: frames, configuration: GestureRecognizerConfiguration(device: source.device)))
        }
        return runs
    }

    static let pinch = [
        ScriptedFinger(id: 1, upMS: 700, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -20), fromS: 0.1)),
        ScriptedFinger(id: 2, upMS: 700, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 20), fromS: 0.1)),
    ]

    static var clickpad: GestureRecognizerConfiguration {
        var c = GestureRecognizerConfiguration.default
        c.device = GestureDeviceTraits(deviceClass: .touchpad, heightMM: 60, isClickpad: true)
        return c
    }

    static func pressed(_ frames: [TouchFrame], fromMS: Double, toMS: Double = .infinity) -> [TouchFrame] {
        frames.map { var f = $0; if milliseconds(f.time) >= fromMS && milliseconds(f.time) < toMS { f.buttons = .left }; return f }
    }

    /// Scripted gestures for the edges the corpus does not take.
    static func scripts() -> [Run] {
        var runs: [Run] = []
        // A hold that a pinch takes over, a finger added mid-pinch for good and briefly.
        runs.append(Run(frames: makeFrames(pinch), configuration: .default))
        runs.append(Run(frames: makeFrames(pinch + [ScriptedFinger(id: 3, downMS: 300, upMS: 700, path: still(PointMM(x: 20, y: 30)))]),
                        configuration: .default))
        runs.append(Run(frames: makeFrames(pinch + [ScriptedFinger(id: 3, downMS: 300, upMS: 340, path: still(PointMM(x: 20, y: 30)))]),
                        configuration: .default))
        let still3 = (0..<3).map { i in ScriptedFinger(id: UInt64(i + 1), upMS: 400, path: still(PointMM(x: 20 + 12 * Double(i), y: 30))) }
        runs.append(Run(frames: makeFrames(still3), configuration: .default))
        // A clickpad pressed during a pinch, and under three fingers before they could hold.
        runs.append(Run(frames: pressed(makeFrames(pinch), fromMS: 300, toMS: 500), configuration: clickpad))
        runs.append(Run(frames: pressed(makeFrames(still3), fromMS: 100, toMS: 200), configuration: clickpad))
        // A third finger lands and lifts while the clickpad is held down: counted, nothing decided.
        runs.append(Run(frames: pressed(makeFrames(pinch + [ScriptedFinger(id: 3, downMS: 200, upMS: 300, path: still(PointMM(x: 20, y: 30)))]),
                                        fromMS: 100, toMS: 400), configuration: clickpad))
        runs += ruleScripts()
        return runs
    }

    /// A gesture for each rule the corpus does not show.
    static func ruleScripts() -> [Run] {
        var runs: [Run] = []
        // Pinching fingers where two may not pinch: they scroll [pinch-unavailable].
        var noTwoFingerPinch = GestureRecognizerConfiguration.default
        noTwoFingerPinch.pinchMinimumFingerCount = 3
        runs.append(Run(frames: makeFrames(pinch), configuration: noTwoFingerPinch))
        // The lower finger moves square to the line to the still upper one: no pinch, a pan [one-finger-moved].
        runs.append(Run(frames: makeFrames([
            ScriptedFinger(id: 1, upMS: 300, path: still(PointMM(x: 30, y: 20))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 60, y: 40), PointMM(x: 40, y: -60))),
        ]), configuration: .default))
        // Two fingers move along beside a still upper one: resting, suppressed on a touchpad, panned
        // with on a touchscreen [resting-finger].
        let besideResting = [
            ScriptedFinger(id: 1, upMS: 300, path: still(PointMM(x: 30, y: 10))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 30, y: 30), PointMM(x: 60, y: 0))),
            ScriptedFinger(id: 3, upMS: 300, path: linear(PointMM(x: 30, y: 50), PointMM(x: 60, y: 0))),
        ]
        runs.append(Run(frames: makeFrames(besideResting), configuration: .default))
        runs.append(Run(frames: makeFrames(besideResting), configuration: .touchscreen))
        // One heads up, the other right: neither the same way nor opposite [different-directions].
        runs.append(Run(frames: makeFrames([
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -40))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 50, y: 40), PointMM(x: 40, y: 0))),
        ]), configuration: .default))
        // The thumb moves up to two still fingers [thumb-pinch].
        runs.append(Run(frames: makeFrames([
            ScriptedFinger(id: 1, upMS: 300, path: still(PointMM(x: 30, y: 10))),
            ScriptedFinger(id: 2, upMS: 300, path: still(PointMM(x: 50, y: 12))),
            ScriptedFinger(id: 3, upMS: 300, path: linear(PointMM(x: 40, y: 50), PointMM(x: 0, y: -60))),
        ]), configuration: .default))
        // A thumb resting in the band below two fingers: left out when they scroll [thumb-band]; one
        // that moves a little leaves the band's jail, before the hold and while holding.
        var banded = GestureRecognizerConfiguration.default
        banded.device = GestureDeviceTraits(deviceClass: .touchpad, heightMM: 60)
        func thumbAbove(_ fingers: @escaping @Sendable (Double) -> PointMM, thumbMovesAtS: Double) -> [ScriptedFinger] {
            [ScriptedFinger(id: 1, upMS: 400, path: fingers),
             ScriptedFinger(id: 2, upMS: 400, path: { t in fingers(t) + PointMM(x: 20, y: 0) }),
             ScriptedFinger(id: 3, upMS: 400, path: { t in PointMM(x: t < thumbMovesAtS ? 40 : 40.7, y: 55) })]
        }
        runs.append(Run(frames: makeFrames(thumbAbove(linear(PointMM(x: 30, y: 20), PointMM(x: 60, y: 0)), thumbMovesAtS: 1)),
                        configuration: banded))
        runs.append(Run(frames: makeFrames(thumbAbove(still(PointMM(x: 30, y: 20)), thumbMovesAtS: 0.1)), configuration: banded))
        runs.append(Run(frames: makeFrames(thumbAbove(still(PointMM(x: 30, y: 20)), thumbMovesAtS: 0.3)), configuration: banded))
        // A scroll whose fingers turn apart within the correction window [scroll-to-pinch-correction].
        func scrollThenApart(_ x: Double, _ side: Double) -> @Sendable (Double) -> PointMM {
            { t in PointMM(x: x + side * 150 * max(0, t - 0.1), y: 30 + 60 * min(t, 0.1)) }
        }
        runs.append(Run(frames: makeFrames([
            ScriptedFinger(id: 1, upMS: 400, path: scrollThenApart(40, -1)),
            ScriptedFinger(id: 2, upMS: 400, path: scrollThenApart(60, 1)),
        ]), configuration: .default))
        // One finger moving on a touchpad is no pan (silent); a second landing ends it at once.
        runs.append(Run(frames: makeFrames([
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 30, y: 30), PointMM(x: 60, y: 0))),
            ScriptedFinger(id: 2, downMS: 200, upMS: 400, path: still(PointMM(x: 60, y: 50))),
        ]), configuration: .default))
        return runs
    }

    // MARK: Every state, left every way

    /// A state reached by a script, which lifts every finger at `upMS` (its frames before do not
    /// depend on it).
    struct Scene {
        var mode: RecognizerMode
        var configuration: GestureRecognizerConfiguration = .default
        var reachedAtMS: Int
        var buttonsFromMS: Double?
        var fingers: @Sendable (_ upMS: Int) -> [ScriptedFinger]

        func frames(upMS: Int) -> [TouchFrame] {
            let frames = makeFrames(fingers(upMS))
            return buttonsFromMS.map { pressed(frames, fromMS: $0) } ?? frames
        }
    }

    static func scenes() -> [Scene] {
        let apart: @Sendable (Int) -> [ScriptedFinger] = { up in
            [ScriptedFinger(id: 1, upMS: up, path: still(PointMM(x: 30, y: 30))),
             ScriptedFinger(id: 2, upMS: up, path: still(PointMM(x: 60, y: 30)))]
        }
        let pinching: @Sendable (Int) -> [ScriptedFinger] = { up in pinch.map { var f = $0; f.upMS = up; return f } }
        return [
            Scene(mode: .idle, reachedAtMS: 0) { _ in [] },
            Scene(mode: .undecided, reachedAtMS: 20, fingers: apart),
            Scene(mode: .hold, reachedAtMS: 100, fingers: apart),
            Scene(mode: .pan, reachedAtMS: 200) { up in
                [ScriptedFinger(id: 1, upMS: up, path: linear(PointMM(x: 30, y: 30), PointMM(x: 0, y: 60))),
                 ScriptedFinger(id: 2, upMS: up, path: linear(PointMM(x: 60, y: 30), PointMM(x: 0, y: 60)))]
            },
            Scene(mode: .pinch, reachedAtMS: 300, fingers: pinching),
            Scene(mode: .switchingFingers, reachedAtMS: 330) { up in
                pinching(up) + [ScriptedFinger(id: 3, downMS: 300, upMS: up, path: still(PointMM(x: 20, y: 30)))]
            },
            Scene(mode: .clickpadPressed, configuration: clickpad, reachedAtMS: 150, buttonsFromMS: 100, fingers: pinching),
        ]
    }

    static func reach(_ scene: Scene) -> TouchGestureRecognizer {
        var r = TouchGestureRecognizer(configuration: scene.configuration)
        #if DEBUG
        r.takenEdges = []
        #endif
        for f in scene.frames(upMS: 10_000) where milliseconds(f.time) <= Double(scene.reachedAtMS) { _ = r.process(f) }
        return r
    }

    static func after(_ scene: Scene) -> EventTime { eventTime(ms: Double(scene.reachedAtMS) + 1) }

    #if DEBUG
    /// The scene's state left by each fault, the end of the stream, a click and a lift of every finger.
    static func leave(_ scene: Scene, into taken: inout Set<RecognizerEdge>) throws {
        let reached = reach(scene)
        try #require(reached.mode == scene.mode, "\(scene.mode.rawValue) not reached: \(reached.mode.rawValue)")
        var left: [TouchGestureRecognizer] = []
        for rule in [GestureRule.resync, .touchJump, .badNumbers] {
            var r = reached
            var out = GestureEvents()
            r.handleForTesting(.fault(GestureDecision(rule), fingers: r.state.fingers.count), at: after(scene), into: &out)
            #expect(r.mode == .idle)
            left.append(r)
        }
        var ended = reached
        _ = ended.finish(at: after(scene))
        #expect(ended.mode == .idle)
        left.append(ended)
        if scene.mode != .clickpadPressed {
            var clicked = reached
            var out = GestureEvents()
            clicked.handleForTesting(.buttonPressed(GestureDecision(.clickpadPressed)), at: after(scene), into: &out)
            #expect(clicked.mode == .clickpadPressed)
            left.append(clicked)
        }
        var lifted = reached
        for f in scene.frames(upMS: scene.reachedAtMS + 10) where milliseconds(f.time) > Double(scene.reachedAtMS) {
            _ = lifted.process(f)
        }
        left.append(lifted)
        // Every finger lifted long after the last frame: a switch times out first, then idle sees the lift.
        var liftedLate = reached
        for f in scene.frames(upMS: scene.reachedAtMS + 200) where milliseconds(f.time) >= Double(scene.reachedAtMS + 200) {
            _ = liftedLate.process(f)
        }
        left.append(liftedLate)
        let changing: Set<RecognizerMode> = [.undecided, .hold, .pan, .pinch]
        if changing.contains(scene.mode) {
            // The last finger replaced by another in one frame, and a finger added for 30 ms.
            let at = scene.reachedAtMS + 10
            var fingers = scene.fingers(10_000)
            let last = fingers[fingers.count - 1]
            fingers[fingers.count - 1].upMS = at
            let replaced = fingers + [ScriptedFinger(id: 99, downMS: at, upMS: 10_000, path: still(last.path(Double(at) / 1000)))]
            let added = scene.fingers(10_000) + [ScriptedFinger(id: 98, downMS: at, upMS: at + 30, path: still(PointMM(x: 10, y: 10)))]
            for script in [replaced, added] {
                var r = reached
                for f in makeFrames(script, untilMS: at + 60) where milliseconds(f.time) > Double(scene.reachedAtMS) { _ = r.process(f) }
                left.append(r)
            }
        }
        for r in left {
            #expect(r.bugCount == 0)
            taken.formUnion(r.takenEdges ?? [])
        }
    }
    #endif
}
