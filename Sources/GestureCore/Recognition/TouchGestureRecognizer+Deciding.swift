#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The handlers of the undecided, hold, pan and pinch states: libinput's
// `tp_gesture_detect_motion_gestures`, in millimetres throughout.
extension TouchGestureRecognizer {
    /// What the touches of an undecided gesture turned out to be, and the rule that says so.
    enum Verdict {
        case undecided
        case pan(GestureDecision)
        case pinch(TrackedTouch, TrackedTouch, GestureDecision)
        /// This touch rests while the others move: suppress it and judge the others afresh.
        case resting(UInt64, GestureDecision)
    }

    /// The undecided (or hold, `holding`) state's motion handler.
    ///
    /// The pair's frames read the decision and the touches in place, and copy them (a decision,
    /// two tracked touches, a 424-byte `Verdict`) only once the pair has moved far enough to be
    /// judged: most frames of an undecided gesture are judged on nothing yet. (A thumb held in the
    /// band, and a centroid pan, copy the decision on their way, as before.)
    mutating func decide(holding: Bool, at now: EventTime, into out: inout GestureEvents) {
        if holding {
            let moved = touches.largestFingerMoveMM
            if moved >= configuration.holdMaxMoveMM {
                var e = GestureEvidence()
                e.movedMM = moved
                e.moveLimitMM = configuration.holdMaxMoveMM
                // A copy first: `state.decision` handed to a mutating method copied the whole recognizer.
                let d = state.decision
                endHoldByMotion(d, e, at: now, into: &out)
                decide(holding: false, at: now, into: &out)
                return
            }
        }
        if let jail = state.decision.bandThumb {
            if decideBeside(jail, holding: holding, at: now, into: &out) { return }
        }
        guard let pair = state.decision.pair, let top = touches.index(of: pair.top),
              let bottom = touches.index(of: pair.bottom) else {
            // One finger, or more fingers than positions: pan once the centroid moved past the slop.
            guard let centroid = touches.fingerCentroid, let start = initialCentroid else { return }
            let moved = centroid.distance(to: start)
            guard moved >= configuration.panSlopMM else { return }
            var e = GestureEvidence()
            e.movedMM = moved
            e.moveLimitMM = configuration.panSlopMM
            let v = Verdict.pan(GestureDecision(.centroidMoved, e))
            let d = state.decision
            endHold(holding, d, v, at: now, into: &out)
            apply(v, d, at: now, into: &out)
            return
        }
        // `verdict`'s own first test, before anything is copied for it.
        if isTooSoonToJudge(touches.movedMM(at: top), touches.movedMM(at: bottom)) { return }
        // Copies first: read inside the call, they made it copy the whole recognizer.
        let d = state.decision, a = touches[top], b = touches[bottom], n = state.fingers.count
        let v = verdict(a, b, fingers: n, excluding: nil, since: d.since, at: now)
        if case .undecided = v { return }
        endHold(holding, d, v, at: now, into: &out)
        apply(v, d, at: now, into: &out)
    }

    /// A thumb resting in the band is left out before anything is decided, so that it delays
    /// nothing: the fingers above it are judged as if it were not there. It becomes a suppressed
    /// thumb with the decision. If it moves first, leaves the band or lifts, or a touch of the
    /// pair is gone, the band is let go and false is returned: the pair is judged as usual. True
    /// when this frame is done.
    private mutating func decideBeside(_ jail: BandThumb, holding: Bool, at now: EventTime,
                                       into out: inout GestureEvents) -> Bool {
        var d = state.decision
        if let thumb = touch(jail.thumb), isInThumbArea(thumb, whenHeightUnknown: false),
           thumb.movedMM < configuration.restingThumbMaxMoveMM,
           let a = touch(jail.pair.top), let b = touch(jail.pair.bottom) {
            let v = verdict(a, b, fingers: state.fingers.count - 1, excluding: jail.thumb, since: d.since, at: now)
            if case .undecided = v { return true }
            endHold(holding, d, v, at: now, into: &out)
            var e = GestureEvidence()
            e.touch = jail.thumb
            e.movedMM = thumb.movedMM
            e.moveLimitMM = configuration.restingThumbMaxMoveMM
            if let height = configuration.device.heightMM { e.fromBottomMM = max(0, height - thumb.position.y) }
            suppress(jail.thumb, &d)
            d.pair = jail.pair
            d.bandThumb = nil
            enter(.undecided(d), fingers: state.fingers.leavingOneOut, on: .motion, at: now,
                  because: GestureDecision(.thumbBand, e))
            apply(v, d, at: now, into: &out)
            return true
        }
        d.bandThumb = nil
        if holding, let hold = state.gesture {
            enter(.hold(d, hold), on: .motion, at: now)
        } else {
            assert(!holding, "a hold without its gesture")
            enter(.undecided(d), on: .motion, at: now)
        }
        return false
    }

    /// A decision reached while holding cancels the hold first (the gesture found takes over).
    private mutating func endHold(_ holding: Bool, _ d: Decision, _ v: Verdict, at now: EventTime,
                                  into out: inout GestureEvents) {
        guard holding else { return }
        var e: GestureEvidence
        switch v {
        case .undecided: return
        case .pan(let why), .pinch(_, _, let why), .resting(_, let why): e = why.evidence
        }
        e.touch = nil
        endHoldByMotion(d, e, at: now, into: &out)
    }

    private mutating func apply(_ verdict: Verdict, _ d: Decision, at now: EventTime, into out: inout GestureEvents) {
        switch verdict {
        case .undecided:
            break
        case .pan(let why):
            choosePan(d, why, at: now, into: &out)
        case let .pinch(a, b, why):
            beginPinch(a, b, d, why, at: now, into: &out)
        case let .resting(id, why):
            var d = d
            suppress(id, &d)
            startDecision(state.fingers.leavingOneOut, at: now, on: .motion, because: why)
        }
    }

    /// A resting touch is ignored for the rest of its life (libinput `tp_thumb_suppress`); the
    /// caller counts one finger fewer.
    private mutating func suppress(_ id: UInt64, _ d: inout Decision) {
        if let i = touches.index(of: id) { touches[i].isThumb = true }
        d.signature = touches.fingerSignature
    }

    /// The lowest touch, when it lies in the thumb band and every other finger above it: with two or
    /// more fingers above, the hand is gesturing with those and the thumb rests (libinput jails a
    /// touch in its thumb area and ignores it for gestures). Touchpads with a known height only.
    func restingThumbInBand(_ pair: (top: UInt64, bottom: UInt64)?) -> BandThumb? {
        guard configuration.suppressRestingThumb, let pair, let lowest = touch(pair.bottom),
              isInThumbArea(lowest, whenHeightUnknown: false) else { return nil }
        for i in 0..<touches.count where !touches[i].isLeftOut && touches[i].id != lowest.id {
            if isInThumbArea(touches[i], whenHeightUnknown: false) { return nil }
        }
        guard let others = touches.topAndBottom(excluding: lowest.id) else { return nil }
        return BandThumb(thumb: lowest.id, pair: others)
    }

    func touch(_ id: UInt64) -> TrackedTouch? {
        touches.index(of: id).map { touches[$0] }
    }

    func allows(_ kind: GestureKind, fingers n: Int) -> Bool {
        // Without a position per finger, only a two-finger scroll (libinput on semi-MT touchpads).
        let positions = configuration.device.fingerPositionsTracked != false
        switch kind {
        case .pan: return configuration.panMinimumFingerCount <= n && n <= configuration.panMaximumFingerCount && (positions || n <= 2)
            && (n != 2 || configuration.scrollMethod.resolved(for: configuration.device) == .twoFinger)
        case .pinch: return positions && configuration.pinchMinimumFingerCount <= n && n <= configuration.pinchMaximumFingerCount
        case .hold: return holdTimeoutMS(fingers: n).isFinite
        }
    }

    func directions(_ t: TrackedTouch) -> CompassDirections {
        CompassDirections(t.displacement, snapEighths: configuration.directionSnapEighths)
    }

    /// The evidence every motion rule shows: how far each tracked finger moved.
    private func moves(_ a: TrackedTouch, _ b: TrackedTouch, limit: Double) -> GestureEvidence {
        var e = GestureEvidence()
        e.movedMM = a.movedMM
        e.otherMovedMM = b.movedMM
        e.moveLimitMM = limit
        return e
    }

    /// Neither touch of the pair has moved `undecidedMoveMM` yet: nothing can be judged (`verdict`'s
    /// first test, which `decide` also asks before copying the pair for it).
    @inline(__always)
    private func isTooSoonToJudge(_ movedA: Double, _ movedB: Double) -> Bool {
        movedA < configuration.undecidedMoveMM && movedB < configuration.undecidedMoveMM
    }

    /// What the tracked pair `a` (top) and `b` (bottom) say about `n` fingers: the first motion rule
    /// (`MotionRule`, in its order) that decides. Touches other than the pair (and `excluded`) are
    /// consulted only to tell a resting touch from a pinching hand.
    private func verdict(_ a: TrackedTouch, _ b: TrackedTouch, fingers n: Int, excluding excluded: UInt64?,
                         since: EventTime, at now: EventTime) -> Verdict {
        if isTooSoonToJudge(a.movedMM, b.movedMM) { return .undecided }
        let extraFingers = Double(max(0, n - 2))
        let pair = JudgedPair(a, b, fingers: n, excluded: excluded, waitedMS: now.milliseconds(since: since),
                              minMoveMM: configuration.minMoveMM + configuration.minMoveExtraPerFingerMM * extraFingers,
                              maxMoveMM: configuration.maxMoveMM + configuration.maxMoveExtraPerFingerMM * extraFingers)
        for rule in MotionRule.inOrder {
            if let decided = verdict(by: rule, a, b, pair) { return decided }
        }
        return .undecided
    }

    /// Every finger but `a`, `b` and `excluded` moved at least `minMoveMM` in the same or a
    /// neighbouring direction as `moving`; false when there is no such other finger.
    func othersMove(along moving: TrackedTouch, minMoveMM: Double,
                            besides a: UInt64, _ b: UInt64, _ excluded: UInt64?) -> Bool {
        let heading = directions(moving)
        var any = false
        for i in 0..<touches.count where !touches[i].isLeftOut {
            let t = touches[i]
            if t.id == a || t.id == b || t.id == excluded { continue }
            guard t.movedMM >= minMoveMM, directions(t).isSameOrNeighbour(of: heading) else { return false }
            any = true
        }
        return any
    }

    /// Each finger's heading, as the compass test read it, for the decision's margin.
    private func recordHeadings(_ a: TrackedTouch, _ b: TrackedTouch, in e: inout GestureEvidence) {
        e.headingEighths = CompassDirections.headingEighths(a.displacement)
        e.otherHeadingEighths = CompassDirections.headingEighths(b.displacement)
    }

    /// Every finger but `a`, `b` and `excluded` moved less than `minMoveMM` (true when there is none:
    /// more fingers than positions).
    func othersRest(minMoveMM: Double, besides a: UInt64, _ b: UInt64, _ excluded: UInt64?) -> Bool {
        for i in 0..<touches.count where !touches[i].isLeftOut {
            let t = touches[i]
            if t.id == a || t.id == b || t.id == excluded { continue }
            if t.movedMM >= minMoveMM { return false }
        }
        return true
    }

    func spanChange(_ a: TrackedTouch, _ b: TrackedTouch) -> Double {
        a.position.distance(to: b.position) - a.initial.distance(to: b.initial)
    }

    /// The span changed or the pair turned enough since the fingers came down, and is wide enough for
    /// a meaningful scale. Turning is measured as the arc each finger travelled (angle x half the
    /// span), so wide and narrow pinches need the same finger movement, as the span change does.
    func hasPinchIntent(_ a: TrackedTouch, _ b: TrackedTouch) -> Bool {
        let span = a.position.distance(to: b.position)
        guard span >= configuration.pinchMinimumSpanMM else { return false }
        let initialSpan = a.initial.distance(to: b.initial)
        if abs(span - initialSpan) >= configuration.pinchSpanSlopMM { return true }
        guard initialSpan >= configuration.rotationMinimumSpanMM else { return false }
        let turned = Self.wrapDegrees(Self.angleDegrees(a.position, b.position) - Self.angleDegrees(a.initial, b.initial))
        let arcMM = abs(turned) * Double.pi / 180 * min(span, initialSpan) / 2
        return arcMM >= configuration.pinchRotationSlopMM
    }

    /// The angle between the two touches' movements, 0...180°; nil when either did not move.
    func angleBetweenMoves(_ a: TrackedTouch, _ b: TrackedTouch) -> Double? {
        let da = a.displacement, db = b.displacement
        let lengths = da.distance(to: .zero) * db.distance(to: .zero)
        guard lengths > 0, lengths.isFinite else { return nil }
        let cosine = min(1, max(-1, (da.x * db.x + da.y * db.y) / lengths))
        return acos(cosine) * 180 / Double.pi
    }

    /// In the band along the bottom edge where a thumb rests. When the height is unknown there is no
    /// band: the answer is `whenHeightUnknown` (true where every still lower touch may be a thumb, as
    /// in libinput without thumb areas; false to jail nothing).
    /// The decision of a clickpad press by a finger, nil when every touch down lies in the thumb
    /// band (a thumb pressed it: libinput lets gestures go on). With no touch at all it counts as a
    /// finger's, as libinput's thumb state starts as one. Evidence: the fingers down, and how far
    /// the highest touch is from the bottom edge (above the band for a finger).
    func clickpadPressedByFinger(fingers: Int) -> GestureDecision? {
        var highest: TrackedTouch?
        var allInBand = touches.count > 0
        for i in 0..<touches.count {
            if !isInThumbArea(touches[i], whenHeightUnknown: false) { allInBand = false }
            if highest == nil || touches[i].position.y < highest!.position.y { highest = touches[i] }
        }
        guard !allInBand else { return nil }
        var e = GestureEvidence()
        e.fingersBefore = fingers
        if let height = configuration.device.heightMM, let highest { e.fromBottomMM = max(0, height - highest.position.y) }
        return GestureDecision(.clickpadPressed, e)
    }

    func isInThumbArea(_ t: TrackedTouch, whenHeightUnknown: Bool) -> Bool {
        guard let height = configuration.device.heightMM else { return whenHeightUnknown }
        return t.position.y >= height - configuration.restingThumbAreaMM
    }

    /// The angle between the moving touch's heading and the line to (or from) the still one, when
    /// it is within `oneSidedPinchMaximumAngleDegrees`; nil otherwise. The angle itself is compared
    /// (not its cosine with the limit's), as its margin is (`GestureDecision.margin(in:)`), so the
    /// decision and the margin agree at the edge.
    func oneSidedPinchAngle(moving: TrackedTouch, still: TrackedTouch) -> Double? {
        guard configuration.oneSidedPinchMaximumAngleDegrees > 0, let angle = angleOffLine(moving: moving, still: still),
              angle <= configuration.oneSidedPinchMaximumAngleDegrees else { return nil }
        return angle
    }

    /// The angle between the moving touch's heading and the line to (or from) the still one, whatever
    /// the limit: what `oneSidedPinchAngle` compares. nil when either is no direction.
    func angleOffLine(moving: TrackedTouch, still: TrackedTouch) -> Double? {
        let d = moving.displacement
        let towards = PointMM(x: still.position.x - moving.initial.x, y: still.position.y - moving.initial.y)
        let lengths = d.distance(to: .zero) * towards.distance(to: .zero)
        guard lengths > 0, lengths.isFinite else { return nil }
        return acos(min(1, abs(d.x * towards.x + d.y * towards.y) / lengths)) * 180 / Double.pi
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
        for i in 0..<touches.count where !touches[i].isLeftOut {
            sum = sum + touches[i].initial
            n += 1
        }
        return n == 0 ? nil : sum * (1 / Double(n))
    }

    // MARK: Pan

    private mutating func choosePan(_ d: Decision, _ why: GestureDecision, at now: EventTime, into out: inout GestureEvents) {
        let n = state.fingers.count
        lifecycles.hold.failIfPossible()
        if !(n == 2 && allows(.pinch, fingers: 2)) { lifecycles.pinch.failIfPossible() }  // no correction to come
        let mayPan = allows(.pan, fingers: n)
        guard mayPan, let centroid = touches.fingerCentroid else {
            lifecycles.pan.failIfPossible()
            // A silent pan says so: traced as the motion's rule it read as a pan that never came.
            var unavailable = why
            if !mayPan {
                var e = why.evidence
                e.fingersAfter = n
                unavailable = GestureDecision(.panUnavailable, e)
            }
            enter(.pan(d, nil), on: .motion, at: now, because: unavailable)
            return
        }
        translationVelocity.reset()
        translationVelocity.add(.zero, at: now)
        let g = begin(GestureEvent(kind: .pan, state: .began, time: now, fingerCount: n, centerMM: centroid, decision: why),
                      center: centroid, decision: d, into: &out)
        enter(.pan(d, g), on: .motion, at: now, because: why)
    }

    /// The pan's motion handler: corrected to a pinch, or moved (its gesture's values set in place).
    mutating func updatePan(at now: EventTime, into out: inout GestureEvents) {
        let waited = now.milliseconds(since: state.decision.since)
        let correctable = waited < configuration.pinchCorrectionWindowMS
        if state.fingers.count == 2, correctable, let pair = state.decision.pair, let a = touch(pair.top), let b = touch(pair.bottom),
           allows(.pinch, fingers: 2), isCorrectableToPinch(a, b) {
            var e = moves(a, b, limit: configuration.pinchCorrectionMinMoveMM)
            e.angleDegrees = angleBetweenMoves(a, b)
            e.spanChangeMM = spanChange(a, b)
            e.waitedMS = waited
            e.timeoutMS = configuration.pinchCorrectionWindowMS
            recordHeadings(a, b, in: &e)
            let why = GestureDecision(.scrollToPinchCorrection, e)
            cancelInFlight(why, at: now, into: &out)  // none for a silent pan
            beginPinch(a, b, state.decision, why, at: now, into: &out)
            return
        }
        if !correctable { lifecycles.pinch.failIfPossible() }
        // A silent pan has no gesture to move (`changeGesture` is nil).
        guard let centroid = touches.fingerCentroid,
              let translation = changeGesture({ $0.movePan(to: centroid) }) ?? nil else { return }
        translationVelocity.add(translation, at: now)
        let velocity = translationVelocity.velocityInPlace(at: now)
        changeGesture { $0.last.velocityMMPerSecond = velocity }
        emitChangeInFlight(at: now, into: &out)
        stay(on: .motion)
    }

    // MARK: Pinch

    static func angleDegrees(_ a: PointMM, _ b: PointMM) -> Double {
        atan2(b.y - a.y, b.x - a.x) * 180 / Double.pi
    }

    /// An angle difference folded into [-180, 180].
    static func wrapDegrees(_ d: Double) -> Double {
        guard d.isFinite else { return 0 }
        var r = d.truncatingRemainder(dividingBy: 360)
        if r > 180 { r -= 360 } else if r < -180 { r += 360 }
        return r
    }

    private mutating func beginPinch(_ a: TrackedTouch, _ b: TrackedTouch, _ d: Decision, _ why: GestureDecision,
                                     at now: EventTime, into out: inout GestureEvents) {
        let span = a.position.distance(to: b.position)
        let center = (a.position + b.position) * 0.5
        translationVelocity.reset()
        translationVelocity.add(.zero, at: now)
        scaleVelocity.reset()
        scaleVelocity.add(1, at: now)
        guard var g = begin(GestureEvent(kind: .pinch, state: .began, time: now, fingerCount: state.fingers.count,
                                         centerMM: center, decision: why),
                            center: center, decision: d, into: &out) else {
            // Unreachable: every decision resets the life cycles, and nothing fails pinch before
            // the decision. Counted, and the fingers stay undecided.
            recordBug(.motion, at: now)
            return
        }
        g.initialSpanMM = max(span, configuration.pinchMinimumSpanMM)
        g.lastAngleDegrees = Self.angleDegrees(a.position, b.position)
        enter(.pinch(d, g), on: .motion, at: now, because: why)
    }

    /// The pinch's motion handler: its gesture's values set in place from the tracked pair.
    mutating func updatePinch(at now: EventTime, into out: inout GestureEvents) {
        guard let pair = state.decision.pair, let a = touch(pair.top), let b = touch(pair.bottom),
              let moved = changeGesture({ [minimumSpan = configuration.rotationMinimumSpanMM] in
                  $0.movePinch(a.position, b.position, rotationMinimumSpanMM: minimumSpan)
              }) ?? nil
        else { return }
        scaleVelocity.add(moved.scale, at: now)
        translationVelocity.add(moved.translation, at: now)
        let scaleVelocity = scaleVelocity.velocityInPlace(at: now).x
        let velocity = translationVelocity.velocityInPlace(at: now)
        changeGesture {
            $0.last.scaleVelocity = scaleVelocity
            $0.last.velocityMMPerSecond = velocity
        }
        emitChangeInFlight(at: now, into: &out)
        stay(on: .motion)
    }
}

extension TouchGestureRecognizer.InFlight {
    /// A pan's centroid at `centroid`: its translation, or nil (and nothing changed) when that is the
    /// one it reported last.
    mutating func movePan(to centroid: PointMM) -> PointMM? {
        let translation = centroid - initialCenter
        guard translation != last.translationMM else { return nil }
        last.centerMM = centroid
        last.translationMM = translation
        return translation
    }

    /// A pinch's pair at `a` and `b`: its scale and translation, or nil (and nothing changed, the
    /// rotation's bookkeeping neither) when scale, rotation and centre are those it reported last.
    mutating func movePinch(_ a: PointMM, _ b: PointMM, rotationMinimumSpanMM: Double)
        -> (scale: Double, translation: PointMM)? {
        let span = a.distance(to: b)
        let scale = span / initialSpanMM
        var turned = turnedDegrees, angle = lastAngleDegrees
        if span >= rotationMinimumSpanMM {
            angle = TouchGestureRecognizer.angleDegrees(a, b)
            let sum = turned + TouchGestureRecognizer.wrapDegrees(angle - lastAngleDegrees)
            if sum.isFinite { turned = sum }
        }
        let rotation = TouchGestureRecognizer.wrapDegrees(turned)
        let center = (a + b) * 0.5
        guard scale != last.scale || rotation != last.rotationDegrees || center != last.centerMM else { return nil }
        turnedDegrees = turned
        lastAngleDegrees = angle
        let translation = center - initialCenter
        last.scale = scale.finiteOr(last.scale)
        last.rotationDegrees = rotation.finiteOr(last.rotationDegrees)
        last.centerMM = center
        last.translationMM = translation
        return (scale, translation)
    }
}
