/// One edge of the recognizer's state machine: the state it leaves, the input, the state it enters
/// and the rule that decided it (nil: none is named, and the trace shows the edge only when the
/// state's mode changes).
struct RecognizerEdge: Sendable, Hashable, CustomStringConvertible {
    var from: RecognizerMode
    var input: RecognizerInput
    var to: RecognizerMode
    var rule: GestureRule?

    init(_ from: RecognizerMode, _ input: RecognizerInput, _ to: RecognizerMode, _ rule: GestureRule?) {
        self.from = from
        self.input = input
        self.to = to
        self.rule = rule
    }

    /// As a row of the table in docs/recognizer-states.md.
    var description: String {
        "| \(from.rawValue) | \(input.rawValue) | \(to.rawValue) | \(rule?.rawValue ?? "-") |"
    }
}

extension TouchGestureRecognizer {
    /// Every edge `enter` may take: the machine's table, which docs/recognizer-states.md lists row for
    /// row (`RecognizerStateDiagramTests` compares them and takes every edge). Debug builds assert
    /// each edge taken is here. A (state, input) pair with no edge either changes nothing (the
    /// handler says why) or is a recognizer bug.
    static let edges: Set<RecognizerEdge> = {
        var table = Set<RecognizerEdge>()
        func add(_ from: RecognizerMode, _ input: RecognizerInput, _ to: RecognizerMode, _ rules: [GestureRule?] = [nil]) {
            for rule in rules { table.insert(RecognizerEdge(from, input, to, rule)) }
        }
        let faults: [GestureRule?] = [.resync, .touchJump, .badNumbers]
        let gestureStates: [RecognizerMode] = [.undecided, .hold, .pan, .pinch, .switchingFingers]

        // Every state: a fault cancels and starts over; a finger's click on a clickpad cancels.
        for mode in RecognizerMode.allCases { add(mode, .fault, .idle, faults) }
        for mode in RecognizerMode.allCases where mode != .clickpadPressed {
            add(mode, .buttonPressed, .clickpadPressed, [.clickpadPressed])
        }
        // With fingers down, lifting all ends the gesture and the end of the stream cancels it.
        for mode in gestureStates { add(mode, .allLifted, .idle, [.allLifted]) }
        for mode in gestureStates + [.clickpadPressed] { add(mode, .endOfStream, .idle, [.endOfStream]) }

        // idle: fingers are counted, then judged.
        add(.idle, .fingerCountChanged, .idle)
        add(.idle, .fingerCountChanged, .undecided)  // fingers detected
        add(.idle, .allLifted, .idle)
        add(.idle, .endOfStream, .idle)

        // undecided: the decision.
        add(.undecided, .fingerCountChanged, .idle)
        add(.undecided, .holdTimeout, .hold, [.holdTimeout])
        add(.undecided, .fingersReplaced, .undecided, [.fingersReplaced])
        for rule in MotionRule.inOrder {
            for mode in rule.outcome.modes { add(.undecided, .motion, mode, [rule.name]) }
        }
        // Besides the motion rules: a thumb in the band left out, one finger's centroid, and a pan
        // for a count that may not pan (silent).
        add(.undecided, .motion, .undecided, [nil, .thumbBand])
        add(.undecided, .motion, .pan, [.centroidMoved, .panUnavailable])

        // hold: the decision goes on beneath it.
        add(.hold, .fingerCountChanged, .switchingFingers)
        add(.hold, .fingersReplaced, .undecided, [.fingersReplaced])
        add(.hold, .motion, .hold)
        add(.hold, .motion, .undecided, [.motionEndsHold])

        // pan: a silent one has nothing to protect.
        add(.pan, .fingerCountChanged, .switchingFingers)
        add(.pan, .fingerCountChanged, .idle)
        add(.pan, .fingersReplaced, .undecided, [.fingersReplaced])
        add(.pan, .motion, .pan)
        add(.pan, .motion, .pinch, [.scrollToPinchCorrection])

        // pinch.
        add(.pinch, .fingerCountChanged, .switchingFingers)
        add(.pinch, .fingersReplaced, .undecided, [.fingersReplaced])
        add(.pinch, .motion, .pinch)

        // switching-fingers: the count comes back, changes again, or stays changed.
        add(.switchingFingers, .fingerCountChanged, .hold)
        add(.switchingFingers, .fingerCountChanged, .pan)
        add(.switchingFingers, .fingerCountChanged, .pinch)
        add(.switchingFingers, .fingerCountChanged, .switchingFingers)
        add(.switchingFingers, .switchTimeout, .idle, [.fingerCountChange])

        // clickpad-pressed: fingers are counted until the release.
        add(.clickpadPressed, .fingerCountChanged, .clickpadPressed)
        add(.clickpadPressed, .allLifted, .clickpadPressed)
        add(.clickpadPressed, .buttonReleased, .idle)
        return table
    }()
}
