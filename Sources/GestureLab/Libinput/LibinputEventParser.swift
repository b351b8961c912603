import GestureTools

/// Turns `libinput debug-events` lines into gestures. Gestures come as BEGIN/UPDATE/END lines;
/// finger scrolling and pointer motion come as single events, grouped here into one scroll
/// (ended by libinput's scroll stop, both axes 0) or one motion (ended by a pause of more than
/// `motionGapSeconds` or by any other event).
///
/// Lines look like (tab before the arguments):
/// ` event0   GESTURE_PINCH_UPDATE    +0.251s\t2  0.00/-0.15 ( 0.00/-0.44 unaccelerated)  0.97 @ -0.18`
/// ` event0   GESTURE_HOLD_END        +0.230s\t2 cancelled`
/// ` event0   POINTER_SCROLL_FINGER   +0.151s\tvert 3.95/0.0* horiz 0.00/0.0 (finger)`
/// ` event0   POINTER_MOTION          +0.055s\t -7.98/-39.04 (-52.00/-254.46)`
package struct LibinputEventParser: Sendable {
    static let motionGapSeconds = 0.1

    package private(set) var gestures: [LibinputGesture] = []
    /// Every gesture and touch event as a gesture tool reads it (`ToolStream`), in libinput's own
    /// units: gathered only when `keepsSteps` is set.
    package private(set) var steps: [ToolEvent] = []
    package var keepsSteps = false
    private var open: LibinputGesture?
    /// Added to libinput's printed times to make them the recording's (see `init`).
    private let offsetSeconds: Double

    /// libinput debug-events prints times relative to the moment its first event arrived
    /// (`start_time` set when its first poll returns): the first event's time plus how late it was
    /// read. `firstEventLateness` (seconds) is that delay, so the times become the recording's.
    package init(firstEventLateness: Double = 0) {
        offsetSeconds = firstEventLateness
    }

    package mutating func consume(line: Substring) {
        let fields = line.split(maxSplits: 3, whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[2].hasPrefix("+"), fields[2].hasSuffix("s"),
              let printed = Double(fields[2].dropFirst().dropLast()) else { return }
        let event = fields[1]
        let time = printed + offsetSeconds
        let rest = fields.count > 3 ? fields[3] : ""
        let n = Self.numbers(in: rest)
        if event.hasPrefix("TOUCH_") {
            if keepsSteps { keepTouch(event: event, time: time, numbers: n) }
        } else if event.hasPrefix("GESTURE_") {
            let parts = event.split(separator: "_")   // GESTURE, PINCH, BEGIN
            guard parts.count == 3, let kind = Self.kind(parts[1]) else { return }
            let fingers = n.first.map { Int($0) }
            if keepsSteps, let fingers { keepGesture(kind, phase: parts[2], fingers: fingers, time: time, rest: rest, numbers: n) }
            switch parts[2] {
            case "BEGIN":
                close()
                open = LibinputGesture(kind: kind, fingers: fingers, begin: time, end: time, cancelled: false,
                                       scale: kind == .pinch ? 1 : nil, angle: kind == .pinch ? 0 : nil,
                                       dx: kind == .hold ? nil : 0, dy: kind == .hold ? nil : 0)
            case "UPDATE":
                guard var g = open, g.kind == kind else { return }
                g.end = time
                // fingers  dx/dy (udx/udy unaccelerated)[  scale @ angle]
                if n.count >= 5 { g.dx = (g.dx ?? 0) + n[3]; g.dy = (g.dy ?? 0) + n[4] }
                if kind == .pinch, n.count >= 7 { g.scale = n[5]; g.angle = (g.angle ?? 0) + n[6] }
                open = g
            case "END":
                guard var g = open, g.kind == kind else { return }
                g.end = time
                g.cancelled = rest.contains("cancelled")
                open = nil
                gestures.append(g)
            default:
                return
            }
        } else if event == "POINTER_SCROLL_FINGER" {
            // vert V/D[*] horiz H/D[*] (finger); 0 on both axes is the scroll stop.
            let vertical = n.count >= 1 ? n[0] : 0
            let horizontal = n.count >= 3 ? n[2] : 0
            if var g = open, g.kind == .scroll {
                g.end = time
                g.dx = (g.dx ?? 0) + horizontal
                g.dy = (g.dy ?? 0) + vertical
                open = g
            } else {
                close()
                open = LibinputGesture(kind: .scroll, fingers: nil, begin: time, end: time, cancelled: false,
                                       dx: horizontal, dy: vertical)
            }
            if vertical == 0 && horizontal == 0 { close() }
        } else if event == "POINTER_MOTION" {
            // dx/dy (udx/udy)
            let unaccelerated = n.count >= 4 ? (n[2], n[3]) : (0, 0)
            if var g = open, g.kind == .motion, time - g.end <= Self.motionGapSeconds {
                g.end = time
                g.dx = (g.dx ?? 0) + unaccelerated.0
                g.dy = (g.dy ?? 0) + unaccelerated.1
                open = g
            } else {
                close()
                open = LibinputGesture(kind: .motion, fingers: 1, begin: time, end: time, cancelled: false,
                                       dx: unaccelerated.0, dy: unaccelerated.1)
            }
        } else if open?.kind == .motion || open?.kind == .scroll {
            close()
        }
    }

    /// End of the output: a gesture still open (the device went away) ends cancelled, as
    /// libinput's own end of a removed device would.
    package mutating func finish() {
        if var g = open, g.kind != .motion && g.kind != .scroll { g.cancelled = true; open = g }
        close()
    }

    private mutating func close() {
        if let g = open { gestures.append(g) }
        open = nil
    }

    /// ` event0 TOUCH_DOWN +0.1s\t0 (0) 12.34/56.78 (10.00/20.00mm)`: slot, seat slot, the position
    /// transformed to debug-events' 100 x 100 screen, then in mm; TOUCH_UP and _CANCEL the slots;
    /// TOUCH_FRAME nothing.
    private mutating func keepTouch(event: Substring, time: Double, numbers n: [Double]) {
        let phase: TouchStep.Phase
        switch event {
        case "TOUCH_DOWN": phase = .down
        case "TOUCH_MOTION": phase = .motion
        case "TOUCH_UP": phase = .up
        case "TOUCH_CANCEL": phase = .cancel
        case "TOUCH_FRAME": phase = .frame
        default: return
        }
        let moves = phase == .down || phase == .motion
        guard !moves || n.count >= 4 else { return }
        steps.append(.touch(TouchStep(phase: phase, time: time, slot: phase == .frame ? -1 : n.first.map { Int($0) } ?? -1,
                                      x: moves ? n[2] / 100 : 0, y: moves ? n[3] / 100 : 0)))
    }

    /// A gesture line as a tool reads it, from the numbers `consume` read: fingers, then on an
    /// update dx/dy (udx/udy unaccelerated)[ scale @ angle]; an end carries the last update's scale.
    private mutating func keepGesture(_ kind: LibinputGesture.Kind, phase: Substring, fingers: Int, time: Double, rest: Substring,
                                      numbers n: [Double]) {
        let stepKind: GestureStep.Kind
        switch kind {
        case .pinch: stepKind = .pinch
        case .swipe: stepKind = .swipe
        case .hold: stepKind = .hold
        case .scroll, .motion: return
        }
        switch phase {
        case "BEGIN":
            steps.append(.gesture(GestureStep(kind: stepKind, phase: .begin, time: time, fingers: fingers)))
        case "UPDATE":
            guard n.count >= 5 else { return }
            let pinch = kind == .pinch && n.count >= 7
            steps.append(.gesture(GestureStep(kind: stepKind, phase: .update, time: time, fingers: fingers, dx: n[3], dy: n[4],
                                              acceleratedDX: n[1], acceleratedDY: n[2],
                                              scale: pinch ? n[5] : 1, angleDelta: pinch ? n[6] : 0)))
        case "END":
            let lastScale = steps.last.flatMap { step -> Double? in
                if case .gesture(let g) = step, g.kind == stepKind { return g.scale }
                return nil
            } ?? 1
            steps.append(.gesture(GestureStep(kind: stepKind, phase: .end, time: time, fingers: fingers, scale: lastScale,
                                              cancelled: rest.contains("cancelled"))))
        default:
            return
        }
    }

    private static func kind(_ name: Substring) -> LibinputGesture.Kind? {
        switch name {
        case "PINCH": return .pinch
        case "SWIPE": return .swipe
        case "HOLD": return .hold
        default: return nil
        }
    }

    /// Every decimal number in `text`, in order ("0.00/-0.15 ( 0.00/-0.44 unaccelerated)" gives
    /// four), signs included.
    static func numbers(in text: Substring) -> [Double] {
        var result: [Double] = []
        var token = ""
        func flush() {
            if let value = Double(token), token.contains(where: \.isNumber) { result.append(value) }
            token = ""
        }
        for c in text {
            if c.isNumber || c == "." || ((c == "-" || c == "+") && token.isEmpty) {
                token.append(c)
            } else {
                flush()
            }
        }
        flush()
        return result
    }
}
