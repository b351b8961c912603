import GestureCore

/// Follows a stream of gesture events and records every broken rule, for every suite that checks
/// one (recognizer, property and pipeline tests): one gesture at a time, began -> changed* ->
/// (ended | cancelled), time never going back, every number finite, a began at scale 1 and zero
/// translation, a rule on every began/ended/cancelled and none on changed, nothing left open.
public struct GestureOrderChecker: Sendable {
    public private(set) var open: GestureKind?
    public private(set) var violations: [String] = []
    public private(set) var beganCount = 0
    public private(set) var closedCount = 0
    private var lastTime: EventTime?

    public init() {}

    public mutating func check(_ event: GestureEvent) {
        let name = "\(event.kind.rawValue) \(event.state.rawValue)"
        if let lastTime, event.time < lastTime { violations.append("\(name): time went back") }
        lastTime = event.time
        for (key, value) in [("scale", event.scale), ("rotation", event.rotationDegrees), ("center.x", event.centerMM.x),
                             ("center.y", event.centerMM.y), ("scaleVelocity", event.scaleVelocity),
                             ("translation.x", event.translationMM.x), ("translation.y", event.translationMM.y),
                             ("velocity.x", event.velocityMMPerSecond.x), ("velocity.y", event.velocityMMPerSecond.y)]
        where !value.isFinite {
            violations.append("\(name): \(key) is \(value)")
        }
        if (event.decision == nil) != (event.state == .changed) {
            violations.append("\(name): began/ended/cancelled name their rule, changed does not")
        }
        switch event.state {
        case .began:
            if let open { violations.append("\(name) while \(open.rawValue) was open") }
            if event.scale != 1 || event.rotationDegrees != 0 || event.translationMM != .zero {
                violations.append("\(name) not at scale 1, rotation 0, translation 0")
            }
            open = event.kind
            beganCount += 1
        case .changed:
            if open != event.kind { violations.append("\(name) while \(open?.rawValue ?? "nothing") was open") }
        case .ended, .cancelled:
            if open != event.kind {
                violations.append("\(name) while \(open?.rawValue ?? "nothing") was open")
            } else {
                closedCount += 1
            }
            open = nil
        }
    }

    public mutating func check(_ events: some Sequence<GestureEvent>) {
        for e in events { check(e) }
    }

    /// The stream is over: a gesture still open is a violation.
    public mutating func finish() {
        if let open { violations.append("a \(open.rawValue) was left open") }
    }
}
