#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises pinch and pan from touch frames, deciding between them as libinput's touchpad gesture
/// code does (its NONE / UNKNOWN / SCROLL / SWIPE / PINCH states), and reports them with UIKit's
/// began / changed / ended / cancelled life cycle.
///
/// Time comes only from the frames (and from `advance(to:)` / `finish(at:)`); the recognizer never
/// reads a clock. `process(_:)` does not allocate.
///
/// Decisions, each tested in `Recognizer*Tests`:
/// - Fingers moving clearly apart or together (`pinchOpposing*`) pinch after 1 mm each.
/// - Pinch vs pan: see `decide`. Both tracked touches past `minMoveMM` in the same or neighbouring
///   compass directions pan; otherwise pinch. With 3+ fingers the topmost and bottommost touches are
///   tracked (libinput's choice: a pinching hand's thumb is lowest).
/// - A two-finger pan that within `pinchCorrectionWindowMS` of the fingers coming down turns out to
///   move them apart is cancelled and a pinch begins in the same frame.
/// - Finger added or lifted during a gesture: nothing is emitted for `fingerCountDebounceMS`; if the
///   count is back by then the gesture continues, otherwise it is cancelled (libinput) and the new
///   set of fingers starts a fresh decision.
/// - All fingers lifted: the gesture ends (`ended`, not cancelled), at once.
/// - One touch past `maxMoveMM` while the other stays below `minMoveMM`: on a touchpad, a still
///   lower touch in the bottom thumb band (`restingThumbAreaMM`) is a resting thumb, suppressed for
///   the rest of its life, and the other fingers are judged without it. Otherwise, with two fingers,
///   a moving touch heading at or away from the still one (`oneSidedPinchMaximumAngleDegrees`)
///   pinches, one-sided; failing that, a still lower touch on a touchpad is again a resting thumb.
/// - Three or more fingers: a touch that stays still while all the others move along together is
///   resting, never one side of a pinch: suppressed on a touchpad (libinput suppresses the lowest,
///   its thumb), the hand pans on a touchscreen. A pinch of the thumb against still fingers needs
///   every finger still, not only the topmost.
/// - A touch lying in the thumb band below two or more fingers is left out before anything is
///   decided, while it moves less than `restingThumbMaxMoveMM`: a thumb resting on a touchpad
///   delays no gesture of the fingers above it (libinput's thumb jail).
/// - Resync frame (`isResync`), a jump, an invalid position or time going backwards: the gesture is
///   cancelled rather than jumping, and a fresh decision starts from the frame's positions (a touch
///   with a bad position stays where it last was). While undecided, a change in the set of touches
///   (a finger replaced within a frame, a touch that had no good position before) starts the
///   decision again, so a pair never points at a touch that is gone.
/// - `finish(at:)` (end of stream, device removed) cancels whatever is in flight.
public struct TouchGestureRecognizer: Sendable {
    public let configuration: GestureRecognizerConfiguration

    private enum Mode: Sendable {
        /// No decision started (libinput NONE).
        case idle
        /// Fingers down, watching how they move (libinput UNKNOWN).
        case undecided
        /// Decided pan (scroll, swipe, one-finger pan). Silent when pan is not configured for this
        /// many fingers, but a silent two-finger pan can still be corrected to a pinch.
        case pan
        case pinch
    }

    /// The values a gesture reported last, and its baseline.
    private struct InFlight: Sendable {
        var last: GestureEvent
        var initialCenter: PointMM
        var initialSpanMM = 0.0
        var lastAngleDegrees = 0.0
        /// Rotation since began, unwrapped; reported wrapped to ±180°.
        var turnedDegrees = 0.0
    }

    /// One UIKit-style life cycle per kind, as if pinch and pan were two recognizers watching the
    /// same touches: both are possible when fingers come down; the one that begins goes on to end
    /// or be cancelled, the other fails (pinch only once a pan can no longer be corrected into it);
    /// fingers that lift with nothing begun fail both. The next decision resets them.
    private struct KindLifecycles: Sendable {
        var pinch = GestureLifecycle()
        var pan = GestureLifecycle()
        subscript(kind: GestureKind) -> GestureLifecycle {
            get { kind == .pinch ? pinch : pan }
            set { if kind == .pinch { pinch = newValue } else { pan = newValue } }
        }
    }

    private struct PendingFingerCount: Sendable {
        var count: Int
        var since: EventTime
    }

    /// What the touches of an undecided gesture turned out to be.
    private enum Verdict {
        case undecided
        case pan
        case pinch(TrackedTouch, TrackedTouch)
        /// This touch rests while the others move: suppress it and judge the others afresh.
        case resting(UInt64)
    }

    /// A touch resting in the thumb band below the other fingers, left out of the decision while it
    /// stays there, and the pair to judge without it.
    private struct BandThumb: Sendable {
        var thumb: UInt64
        var pair: (top: UInt64, bottom: UInt64)
    }

    private var mode = Mode.idle
    private var touches = TrackedTouches()
    private var committedFingerCount = 0
    private var pending: PendingFingerCount?
    /// When the fingers of the current decision came down (libinput `gesture.initial_time`).
    private var baselineTime = EventTime.zero
    private var pair: (top: UInt64, bottom: UInt64)?
    private var bandThumb: BandThumb?
    private var signature = TouchSignature()
    private var inFlight: InFlight?
    private var lifecycles = KindLifecycles()
    private var lastFrameTime: EventTime?
    private var translationVelocity: VelocityTracker
    private var scaleVelocity: VelocityTracker

    public init(configuration: GestureRecognizerConfiguration = .default) {
        self.configuration = configuration.sanitized
        translationVelocity = VelocityTracker(configuration: self.configuration.velocity)
        scaleVelocity = VelocityTracker(configuration: self.configuration.velocity)
    }

    /// The gesture between its `began` and its `ended`/`cancelled`, if any.
    public var gestureInFlight: GestureKind? { inFlight?.last.kind }

    /// Where each kind's recognizer is in its life cycle: `possible` while the fingers are being
    /// judged, `failed` when they turned out to be something else (or a tap, or nothing).
    public func state(of kind: GestureKind) -> RecognizerState { lifecycles[kind].state }

    // MARK: Input

    /// Consumes one frame and returns what it recognised (often nothing).
    public mutating func process(_ frame: TouchFrame) -> GestureEvents {
        var out = GestureEvents()
        let now = frame.time
        var fault = frame.isResync
        var dt = 0.0
        if let last = lastFrameTime {
            if now < last { fault = true } else { dt = now.milliseconds(since: last) / 1_000 }
        }
        lastFrameTime = now
        expirePendingFingerCount(at: now, into: &out)

        let margin = configuration.useFuzzHysteresis ? configuration.device.fuzzMM : 0
        let touchFault = touches.update(from: frame, hysteresisMM: margin, secondsSincePrevious: dt,
                                        jumpDistanceMM: configuration.jumpDistanceMM,
                                        jumpSpeedMMPerSecond: configuration.jumpSpeedMMPerSecond)
        if case .none = touchFault {} else { fault = true }

        let fingers = max(touches.fingerCount, frame.fingerCount - touches.thumbCount, 0)
        if fault {
            // Positions cannot be trusted to continue the gesture: cancel and start over from here.
            finish(.cancelled, at: now, into: &out)
            mode = .idle
            pending = nil
            committedFingerCount = fingers
        }

        if fingers != committedFingerCount {
            if fingers == 0 {
                finish(.ended, at: now, into: &out)
                failWhatIsPossible()
                mode = .idle
                committedFingerCount = 0
                pending = nil
            } else if inFlight == nil {
                // Nothing to protect: switch at once and judge the new set of fingers afresh.
                committedFingerCount = fingers
                pending = nil
                mode = .idle
            } else if pending?.count != fingers {
                pending = PendingFingerCount(count: fingers, since: now)
            }
        } else {
            pending = nil
        }
        if pending != nil { return out }

        if mode == .pan || mode == .pinch, touches.fingerSignature != signature {
            // Same count, different fingers (one lifted and another put down within a frame).
            finish(.cancelled, at: now, into: &out)
            mode = .idle
        }
        if mode == .idle && committedFingerCount > 0 {
            startDecision(at: now)
        } else if mode == .undecided && touches.fingerSignature != signature {
            // Same count, different touches while nothing is decided: a finger replaced within a
            // frame, or one that had no good position when the decision started (its pair was then
            // incomplete). Judge the touches that are there now, from where they are.
            startDecision(at: now)
        }

        switch mode {
        case .idle: break
        case .undecided: decide(at: now, into: &out)
        case .pan: updatePan(at: now, into: &out)
        case .pinch: updatePinch(at: now, into: &out)
        }
        return out
    }

    /// Lets time pass without a frame (a touchpad sends none while fingers rest), so that a pending
    /// finger-count change can time out and cancel the gesture.
    public mutating func advance(to time: EventTime) -> GestureEvents {
        var out = GestureEvents()
        expirePendingFingerCount(at: time, into: &out)
        return out
    }

    /// Ends the stream (end of file, device removed): cancels a gesture in flight and forgets every
    /// touch. The recognizer is then as new.
    public mutating func finish(at time: EventTime) -> GestureEvents {
        var out = GestureEvents()
        finish(.cancelled, at: time, into: &out)
        failWhatIsPossible()
        mode = .idle
        touches.removeAll()
        committedFingerCount = 0
        pending = nil
        lastFrameTime = nil
        return out
    }

    // MARK: Finger count

    private mutating func expirePendingFingerCount(at now: EventTime, into out: inout GestureEvents) {
        guard let p = pending, now.milliseconds(since: p.since) >= configuration.fingerCountDebounceMS else { return }
        finish(.cancelled, at: p.since.adding(milliseconds: configuration.fingerCountDebounceMS), into: &out)
        committedFingerCount = p.count
        pending = nil
        mode = .idle
    }

    // MARK: Deciding

    private mutating func startDecision(at now: EventTime) {
        if inFlight == nil {
            _ = lifecycles.pinch.reset()
            _ = lifecycles.pan.reset()
        }
        touches.rebaseline()
        baselineTime = now
        pair = committedFingerCount >= 2 ? touches.topAndBottom : nil
        bandThumb = committedFingerCount >= 3 ? restingThumbInBand() : nil
        signature = touches.fingerSignature
        mode = .undecided
    }

    /// The lowest touch, when it lies in the thumb band and every other finger above it: with two or
    /// more fingers above, the hand is gesturing with those and the thumb rests (libinput jails a
    /// touch in its thumb area and ignores it for gestures). Touchpads with a known height only.
    private func restingThumbInBand() -> BandThumb? {
        guard configuration.suppressRestingThumb, let pair, let lowest = touch(pair.bottom),
              isInThumbArea(lowest, whenHeightUnknown: false) else { return nil }
        for i in 0..<touches.count where !touches[i].isThumb && touches[i].id != lowest.id {
            if isInThumbArea(touches[i], whenHeightUnknown: false) { return nil }
        }
        guard let others = touches.topAndBottom(excluding: lowest.id) else { return nil }
        return BandThumb(thumb: lowest.id, pair: others)
    }

    private func touch(_ id: UInt64) -> TrackedTouch? {
        touches.index(of: id).map { touches[$0] }
    }

    private func allows(_ kind: GestureKind, fingers n: Int) -> Bool {
        switch kind {
        case .pan: configuration.panMinimumFingerCount <= n && n <= configuration.panMaximumFingerCount
        case .pinch: configuration.pinchMinimumFingerCount <= n && n <= configuration.pinchMaximumFingerCount
        }
    }

    private func directions(_ t: TrackedTouch) -> CompassDirections {
        CompassDirections(t.displacement, snapEighths: configuration.directionSnapEighths)
    }

    /// libinput's `tp_gesture_detect_motion_gestures`, in millimetres throughout.
    private mutating func decide(at now: EventTime, into out: inout GestureEvents) {
        if let jail = bandThumb {
            // A thumb resting in the band is left out before anything is decided, so that it
            // delays nothing: the fingers above it are judged as if it were not there. It becomes
            // a suppressed thumb with the decision; if it moves first, it is a finger after all.
            if let thumb = touch(jail.thumb), isInThumbArea(thumb, whenHeightUnknown: false), thumb.movedMM < configuration.restingThumbMaxMoveMM,
               let a = touch(jail.pair.top), let b = touch(jail.pair.bottom) {
                let v = verdict(a, b, fingers: committedFingerCount - 1, excluding: jail.thumb, at: now)
                if case .undecided = v { return }
                suppress(jail.thumb)
                pair = jail.pair
                apply(v, at: now, into: &out)
                return
            }
            bandThumb = nil
        }
        guard let pair, let a = touch(pair.top), let b = touch(pair.bottom) else {
            // One finger, or more fingers than positions: pan once the centroid moved past the slop.
            guard let centroid = touches.fingerCentroid, let start = initialCentroid,
                  centroid.distance(to: start) >= configuration.panSlopMM else { return }
            choosePan(at: now, into: &out)
            return
        }
        apply(verdict(a, b, fingers: committedFingerCount, excluding: nil, at: now), at: now, into: &out)
    }

    private mutating func apply(_ verdict: Verdict, at now: EventTime, into out: inout GestureEvents) {
        switch verdict {
        case .undecided:
            break
        case .pan:
            choosePan(at: now, into: &out)
        case let .pinch(a, b):
            beginPinch(a, b, at: now, into: &out)
        case let .resting(id):
            suppress(id)
            mode = .idle
            startDecision(at: now)
        }
    }

    /// A resting touch is ignored for the rest of its life (libinput `tp_thumb_suppress`).
    private mutating func suppress(_ id: UInt64) {
        if let i = touches.index(of: id) { touches[i].isThumb = true }
        committedFingerCount = max(0, committedFingerCount - 1)
        signature = touches.fingerSignature
    }

    /// What the tracked pair `a` (top) and `b` (bottom) say about `n` fingers; touches other than
    /// the pair (and `excluded`) are consulted only to tell a resting touch from a pinching hand.
    private func verdict(_ a: TrackedTouch, _ b: TrackedTouch, fingers n: Int, excluding excluded: UInt64?,
                         at now: EventTime) -> Verdict {
        let extraFingers = Double(max(0, n - 2))
        let minMove = configuration.minMoveMM + configuration.minMoveExtraPerFingerMM * extraFingers
        let maxMove = configuration.maxMoveMM + configuration.maxMoveExtraPerFingerMM * extraFingers
        let movedA = a.movedMM, movedB = b.movedMM
        if movedA < configuration.undecidedMoveMM && movedB < configuration.undecidedMoveMM { return .undecided }

        if movedA >= configuration.pinchOpposingMinMoveMM && movedB >= configuration.pinchOpposingMinMoveMM
            && allows(.pinch, fingers: n) && areOpposing(a, b) && hasPinchIntent(a, b) {
            return .pinch(a, b)
        }

        // Side by side after the timeout is a scroll (libinput), unless the span already changed: a
        // span change is no scroll, and the direction test below decides once both have moved.
        let spreadX = abs(a.position.x - b.position.x), spreadY = abs(a.position.y - b.position.y)
        if now.milliseconds(since: baselineTime) > configuration.scrollDecisionTimeoutMS
            && spreadX < configuration.scrollMaxHorizontalSpreadMM
            && spreadY < configuration.scrollMaxVerticalSpreadMM
            && !hasPinchIntent(a, b) {
            return .pan
        }

        // b is the lower touch: the thumb, if either is.
        let fingerMoved = movedA, thumbMoved = movedB
        if fingerMoved >= maxMove || thumbMoved >= maxMove {
            let (moving, still) = fingerMoved >= thumbMoved ? (a, b) : (b, a)
            let thumbRests = configuration.suppressRestingThumb && thumbMoved < minMove
            // One-sided pinch: two fingers only. With more, the pair is two of them and a finger
            // heading at a still one may be moving along with the others (a scroll beside a
            // resting touch), which the rules below tell apart.
            if n == 2 && still.movedMM < minMove && !(thumbRests && isInThumbArea(b, whenHeightUnknown: true)) && allows(.pinch, fingers: n)
                && isOneSidedPinch(moving: moving, still: still) && hasPinchIntent(a, b) {
                return .pinch(a, b)
            }
            if thumbRests { return .resting(b.id) }
            if still.movedMM < minMove {
                // One finger rests while the other moves, and it is no pinch: the pair pans
                // (libinput's one-finger scroll; UIKit pans the centroid of the touches).
                if n == 2 { return .pan }
                // A touch rests while all the others move along with the moving one (a scroll or
                // swipe beside a resting finger): resting, suppressed like a thumb on a touchpad;
                // on a touchscreen the hand pans, resting finger and all.
                if othersMove(along: moving, minMoveMM: minMove, besides: a.id, b.id, excluded) {
                    return configuration.suppressRestingThumb ? .resting(still.id) : .pan
                }
            }
            // The thumb moves while the fingers rest: a pinch (libinput), but only if every finger
            // rests, not just the topmost.
            if fingerMoved < minMove && n > 2 && othersRest(minMoveMM: minMove, besides: a.id, b.id, excluded)
                && allows(.pinch, fingers: n) && hasPinchIntent(a, b) {
                return .pinch(a, b)
            }
        }
        if movedA < minMove || movedB < minMove { return .undecided }

        if directions(a).isSameOrNeighbour(of: directions(b)) || !allows(.pinch, fingers: n) { return .pan }
        return hasPinchIntent(a, b) ? .pinch(a, b) : .undecided
    }

    /// Every finger but `a`, `b` and `excluded` moved at least `minMoveMM` in the same or a
    /// neighbouring direction as `moving`; false when there is no such other finger.
    private func othersMove(along moving: TrackedTouch, minMoveMM: Double,
                            besides a: UInt64, _ b: UInt64, _ excluded: UInt64?) -> Bool {
        let heading = directions(moving)
        var any = false
        for i in 0..<touches.count where !touches[i].isThumb {
            let t = touches[i]
            if t.id == a || t.id == b || t.id == excluded { continue }
            guard t.movedMM >= minMoveMM, directions(t).isSameOrNeighbour(of: heading) else { return false }
            any = true
        }
        return any
    }

    /// Every finger but `a`, `b` and `excluded` moved less than `minMoveMM` (true when there is none:
    /// more fingers than positions).
    private func othersRest(minMoveMM: Double, besides a: UInt64, _ b: UInt64, _ excluded: UInt64?) -> Bool {
        for i in 0..<touches.count where !touches[i].isThumb {
            let t = touches[i]
            if t.id == a || t.id == b || t.id == excluded { continue }
            if t.movedMM >= minMoveMM { return false }
        }
        return true
    }

    /// The span changed or the pair turned enough since the fingers came down, and is wide enough for
    /// a meaningful scale. Turning is measured as the arc each finger travelled (angle x half the
    /// span), so wide and narrow pinches need the same finger movement, as the span change does.
    private func hasPinchIntent(_ a: TrackedTouch, _ b: TrackedTouch) -> Bool {
        let span = a.position.distance(to: b.position)
        guard span >= configuration.pinchMinimumSpanMM else { return false }
        let initialSpan = a.initial.distance(to: b.initial)
        if abs(span - initialSpan) >= configuration.pinchSpanSlopMM { return true }
        guard initialSpan >= configuration.rotationMinimumSpanMM else { return false }
        let turned = Self.wrapDegrees(Self.angleDegrees(a.position, b.position) - Self.angleDegrees(a.initial, b.initial))
        let arcMM = abs(turned) * Double.pi / 180 * min(span, initialSpan) / 2
        return arcMM >= configuration.pinchRotationSlopMM
    }


    /// The two touches' movements point at least `pinchOpposingMinimumAngleDegrees` apart.
    private func areOpposing(_ a: TrackedTouch, _ b: TrackedTouch) -> Bool {
        let da = a.displacement, db = b.displacement
        let lengths = da.distance(to: .zero) * db.distance(to: .zero)
        guard lengths > 0, lengths.isFinite else { return false }
        let cosine = (da.x * db.x + da.y * db.y) / lengths
        return cosine <= cos(configuration.pinchOpposingMinimumAngleDegrees * Double.pi / 180)
    }

    /// In the band along the bottom edge where a thumb rests. When the height is unknown there is no
    /// band: the answer is `whenHeightUnknown` (true where every still lower touch may be a thumb, as
    /// in libinput without thumb areas; false to jail nothing).
    private func isInThumbArea(_ t: TrackedTouch, whenHeightUnknown: Bool) -> Bool {
        guard let height = configuration.device.heightMM else { return whenHeightUnknown }
        return t.position.y >= height - configuration.restingThumbAreaMM
    }

    /// The moving touch heads at (or away from) the still one, within
    /// `oneSidedPinchMaximumAngleDegrees` of the line between them where it started.
    private func isOneSidedPinch(moving: TrackedTouch, still: TrackedTouch) -> Bool {
        let d = moving.displacement
        let towards = PointMM(x: still.position.x - moving.initial.x, y: still.position.y - moving.initial.y)
        let lengths = d.distance(to: .zero) * towards.distance(to: .zero)
        guard configuration.oneSidedPinchMaximumAngleDegrees > 0, lengths > 0, lengths.isFinite else { return false }
        let cosine = abs(d.x * towards.x + d.y * towards.y) / lengths
        return cosine >= cos(configuration.oneSidedPinchMaximumAngleDegrees * .pi / 180)
    }

    /// libinput's `tp_gesture_is_pinch`, used to correct an early scroll.
    private func isCorrectableToPinch(_ a: TrackedTouch, _ b: TrackedTouch) -> Bool {
        a.movedMM >= configuration.pinchCorrectionMinMoveMM
            && b.movedMM >= configuration.pinchCorrectionMinMoveMM
            && !directions(a).isSameOrNeighbour(of: directions(b))
            && hasPinchIntent(a, b)
    }

    private var initialCentroid: PointMM? {
        var sum = PointMM.zero
        var n = 0
        for i in 0..<touches.count where !touches[i].isThumb {
            sum = sum + touches[i].initial
            n += 1
        }
        return n == 0 ? nil : sum * (1 / Double(n))
    }

    // MARK: Pan

    private mutating func choosePan(at now: EventTime, into out: inout GestureEvents) {
        mode = .pan
        let n = committedFingerCount
        if !(n == 2 && allows(.pinch, fingers: 2)) { _ = lifecycles.pinch.fail() }  // no correction to come
        guard allows(.pan, fingers: n), let centroid = touches.fingerCentroid else {
            _ = lifecycles.pan.fail()
            return
        }
        translationVelocity.reset()
        translationVelocity.add(.zero, at: now)
        begin(GestureEvent(kind: .pan, state: .began, time: now, fingerCount: n, centerMM: centroid),
              center: centroid, into: &out)
    }

    private mutating func updatePan(at now: EventTime, into out: inout GestureEvents) {
        let correctable = now.milliseconds(since: baselineTime) < configuration.pinchCorrectionWindowMS
        if committedFingerCount == 2, correctable, let pair, let a = touch(pair.top), let b = touch(pair.bottom),
           allows(.pinch, fingers: 2), isCorrectableToPinch(a, b) {
            finish(.cancelled, at: now, into: &out)
            beginPinch(a, b, at: now, into: &out)
            return
        }
        if !correctable { _ = lifecycles.pinch.fail() }
        guard var g = inFlight, let centroid = touches.fingerCentroid else { return }
        let translation = centroid - g.initialCenter
        guard translation != g.last.translationMM else { return }
        translationVelocity.add(translation, at: now)
        g.last.centerMM = centroid
        g.last.translationMM = translation
        g.last.velocityMMPerSecond = translationVelocity.velocity(at: now)
        inFlight = g
        emitChange(at: now, into: &out)
    }

    // MARK: Pinch

    private static func angleDegrees(_ a: PointMM, _ b: PointMM) -> Double {
        atan2(b.y - a.y, b.x - a.x) * 180 / Double.pi
    }

    /// An angle difference folded into [-180, 180].
    static func wrapDegrees(_ d: Double) -> Double {
        guard d.isFinite else { return 0 }
        var r = d.truncatingRemainder(dividingBy: 360)
        if r > 180 { r -= 360 } else if r < -180 { r += 360 }
        return r
    }

    private mutating func beginPinch(_ a: TrackedTouch, _ b: TrackedTouch, at now: EventTime,
                                     into out: inout GestureEvents) {
        mode = .pinch
        let span = a.position.distance(to: b.position)
        let center = (a.position + b.position) * 0.5
        translationVelocity.reset()
        translationVelocity.add(.zero, at: now)
        scaleVelocity.reset()
        scaleVelocity.add(1, at: now)
        begin(GestureEvent(kind: .pinch, state: .began, time: now, fingerCount: committedFingerCount,
                           centerMM: center),
              center: center, into: &out)
        inFlight?.initialSpanMM = max(span, configuration.pinchMinimumSpanMM)
        inFlight?.lastAngleDegrees = Self.angleDegrees(a.position, b.position)
    }

    private mutating func updatePinch(at now: EventTime, into out: inout GestureEvents) {
        guard var g = inFlight, let pair, let a = touch(pair.top), let b = touch(pair.bottom) else { return }
        let span = a.position.distance(to: b.position)
        let scale = span / g.initialSpanMM
        if span >= configuration.rotationMinimumSpanMM {
            let angle = Self.angleDegrees(a.position, b.position)
            let turned = g.turnedDegrees + Self.wrapDegrees(angle - g.lastAngleDegrees)
            if turned.isFinite { g.turnedDegrees = turned }
            g.lastAngleDegrees = angle
        }
        let rotation = Self.wrapDegrees(g.turnedDegrees)
        let center = (a.position + b.position) * 0.5
        guard scale != g.last.scale || rotation != g.last.rotationDegrees || center != g.last.centerMM else { return }
        let translation = center - g.initialCenter
        scaleVelocity.add(scale, at: now)
        translationVelocity.add(translation, at: now)
        g.last.scale = scale.finiteOr(g.last.scale)
        g.last.rotationDegrees = rotation.finiteOr(g.last.rotationDegrees)
        g.last.centerMM = center
        g.last.translationMM = translation
        g.last.scaleVelocity = scaleVelocity.velocity(at: now).x
        g.last.velocityMMPerSecond = translationVelocity.velocity(at: now)
        inFlight = g
        emitChange(at: now, into: &out)
    }

    // MARK: Emitting

    private mutating func begin(_ event: GestureEvent, center: PointMM, into out: inout GestureEvents) {
        // Never two at once: whatever is in flight ends first (cannot happen by the modes; a began
        // must never be left without its end, so it is made impossible here too).
        finish(.cancelled, at: event.time, into: &out)
        guard lifecycles[event.kind].begin() != nil else { return }
        let other: GestureKind = event.kind == .pinch ? .pan : .pinch
        // A pinch may still take over from a two-finger pan (the correction window).
        if !(event.kind == .pan && event.fingerCount == 2 && allows(.pinch, fingers: 2)) { _ = lifecycles[other].fail() }
        inFlight = InFlight(last: event, initialCenter: center)
        out.append(event)
    }

    /// Fingers lifted (or the stream ended) with nothing begun for a kind: it failed.
    private mutating func failWhatIsPossible() {
        _ = lifecycles.pinch.fail()
        _ = lifecycles.pan.fail()
    }

    private mutating func emitChange(at now: EventTime, into out: inout GestureEvents) {
        guard var g = inFlight, let state = lifecycles[g.last.kind].change() else { return }
        g.last.state = state
        g.last.time = now
        inFlight = g
        out.append(g.last)
    }

    /// Ends the gesture in flight, if any, with its last values and the velocity at `time` (zero if
    /// the fingers had stopped).
    private mutating func finish(_ how: GestureState, at time: EventTime, into out: inout GestureEvents) {
        guard var g = inFlight else { return }
        let state = how == .ended ? lifecycles[g.last.kind].end() : lifecycles[g.last.kind].cancel()
        inFlight = nil
        guard let state else { return }
        g.last.state = state
        g.last.time = max(time, g.last.time)
        g.last.velocityMMPerSecond = translationVelocity.velocity(at: g.last.time)
        if g.last.kind == .pinch { g.last.scaleVelocity = scaleVelocity.velocity(at: g.last.time).x }
        out.append(g.last)
    }
}
