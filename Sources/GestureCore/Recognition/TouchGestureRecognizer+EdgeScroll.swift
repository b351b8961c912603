// Edge scrolling (scroll method `edge`), beside the recognizer's own state machine: each touch runs
// libinput's per-touch edge-scroll machine (`EdgeScrollTouchState`), a touch in an edge is left
// out of the recognizer's fingers, and one that scrolls is a one-finger pan [edge-scroll].
//
// One gesture at a time, as the transition follows one: an edge scroll begins only while the
// recognizer has no gesture in flight (and no clickpad is pressed), and while it lasts every other
// touch waits, left out, until it ends; then they are fingers landing afresh. libinput would let
// them move the pointer or gesture meanwhile.
extension TouchGestureRecognizer {
    /// An edge scroll in flight: its touch and edge, where the touch was when it began (moved on
    /// by the touch's jumps), where it was at the last frame, its gesture.
    struct EdgeScrollPan: Sendable {
        var touch: UInt64
        var edge: ScrollEdges
        var start: PointMM
        var last: PointMM
        var gesture: InFlight
    }

    /// One frame of edge scrolling (libinput's `tp_edge_scroll_handle_state` then
    /// `tp_edge_scroll_post_events`), before the recognizer counts its fingers: a fault or a
    /// clickpad press cancels the scroll in flight (its touch becomes a finger, as libinput's
    /// `tp_edge_scroll_stop_events` puts it back in the area), its touch lifting ends it. A jump of
    /// its touch is skipped, not a fault: libinput resets that touch's motion history
    /// (`tp_detect_jumps`), so the frame scrolls by nothing, and the scroll goes on from there.
    mutating func followEdgeScroll(_ frame: TouchFrame, fault: FrameFault?, at now: EventTime,
                                   into out: inout GestureEvents) {
        guard let zones = edgeScrollZones else { return }
        let clickpadPressed = configuration.device.isClickpad == true && !frame.buttons.isEmpty
        if let pan = edgeScrollPan {
            if let i = touches.index(of: pan.touch) {
                if case let .touchJump(jumped, _, _)? = fault {
                    // Another touch's jump (a waiting one) is none of the scroll's business.
                    if jumped == pan.touch { edgeScrollPan?.start = pan.start + (touches[i].position - pan.last) }
                } else if let fault {
                    touches[i].edgeScroll = .area
                    endEdgeScroll(.cancelled, decision(for: fault), on: .fault, at: now, into: &out)
                } else if clickpadPressed {
                    touches[i].edgeScroll = .area
                    endEdgeScroll(.cancelled, GestureDecision(.clickpadPressed), on: .buttonPressed, at: now, into: &out)
                }
            } else {
                var e = GestureEvidence()
                e.fingersBefore = 1
                endEdgeScroll(.ended, GestureDecision(.allLifted, e), on: .allLifted, at: now, into: &out)
            }
        }
        for i in 0..<touches.count where touches[i].id != edgeScrollPan?.touch {
            if edgeScrollPan != nil {
                touches[i].edgeScroll = .waiting
            } else {
                let position = touches[i].position
                touches[i].edgeScroll.follow(position, at: now, zones: zones)
            }
        }
        if let pan = edgeScrollPan {
            updateEdgeScroll(pan, zones: zones, at: now, into: &out)
        } else if fault == nil, !clickpadPressed, gestureInFlight == nil, mode != .clickpadPressed {
            for i in 0..<touches.count where touches[i].edgeScroll.scrolls(at: touches[i].position, zones: zones) {
                beginEdgeScroll(touches[i], zones: zones, at: now, into: &out)
                break
            }
        }
    }

    /// Ends or cancels the edge scroll in flight, if any, on `input`; the touches that waited
    /// become fingers.
    mutating func endEdgeScroll(_ how: GestureState, _ why: GestureDecision, on input: RecognizerInput, at now: EventTime,
                                into out: inout GestureEvents) {
        guard let pan = edgeScrollPan else { return }
        finishGesture(pan.gesture, how, why, at: now, into: &out)
        recordEdgeScroll(.stopped, on: input, fingers: 0, because: why, at: now)
        edgeScrollPan = nil
        for i in 0..<touches.count where touches[i].edgeScroll == .waiting { touches[i].edgeScroll = .area }
    }

    private mutating func beginEdgeScroll(_ touch: TrackedTouch, zones: EdgeScrollZones, at now: EventTime,
                                          into out: inout GestureEvents) {
        guard case .edge(let edges, let landed, let since, let lockedAt) = touch.edgeScroll,
              let edge = touch.edgeScroll.scrollEdge else { return }
        // Nothing is in flight (checked by the caller): each kind starts from possible.
        _ = lifecycles.pinch.reset()
        _ = lifecycles.pan.reset()
        _ = lifecycles.hold.reset()
        guard lifecycles.pan.begin() != nil else { return }
        _ = lifecycles.pinch.fail()
        _ = lifecycles.hold.fail()
        var e = GestureEvidence()
        e.touch = touch.id
        e.movedMM = EdgeScrollTouchState.along(edges, touch.position - landed)
        if lockedAt == nil {
            e.moveLimitMM = zones.minMoveMM
        } else {
            e.waitedMS = now.milliseconds(since: since)
            e.timeoutMS = zones.lockTimeoutMS
        }
        if edge == .right {
            e.fromRightMM = max(0, zones.rightEdgeX + zones.widthMM - landed.x)
        } else {
            e.fromBottomMM = max(0, zones.bottomEdgeY + zones.widthMM - landed.y)
        }
        e.edgeWidthMM = zones.widthMM
        let event = GestureEvent(kind: .pan, state: .began, time: now, fingerCount: 1, centerMM: touch.position,
                                 decision: GestureDecision(.edgeScroll, e))
        out.append(event)
        translationVelocity.reset()
        translationVelocity.add(.zero, at: now)
        recordEdgeScroll(.began, on: .motion, fingers: 1, because: GestureDecision(.edgeScroll, e), at: now)
        edgeScrollPan = EdgeScrollPan(touch: touch.id, edge: edge, start: touch.position, last: touch.position,
                                      gesture: InFlight(last: event, initialCenter: touch.position))
        for i in 0..<touches.count where touches[i].id != touch.id { touches[i].edgeScroll = .waiting }
    }

    /// The edge scroll's change among the machine's for `--trace`; the machine's mode stays as it is.
    private mutating func recordEdgeScroll(_ change: EdgeScrollChange, on input: RecognizerInput, fingers: Int,
                                           because decision: GestureDecision, at now: EventTime) {
        stateChanges.append(RecognizerStateChange(time: now, from: mode, to: mode, input: input, fingers: fingers,
                                                  decision: decision, edgeScroll: change))
    }

    /// The scroll follows its touch along its edge only (a right-edge scroll is vertical, a bottom
    /// one horizontal) and only while the touch is in that edge, as libinput posts scroll events.
    private mutating func updateEdgeScroll(_ pan: EdgeScrollPan, zones: EdgeScrollZones, at now: EventTime,
                                           into out: inout GestureEvents) {
        guard let touch = touch(pan.touch) else { return }
        edgeScrollPan?.last = touch.position
        guard zones.edges(at: touch.position).contains(pan.edge) else { return }
        let moved = touch.position - pan.start
        let translation = pan.edge == .right ? PointMM(x: 0, y: moved.y) : PointMM(x: moved.x, y: 0)
        var g = pan.gesture
        guard translation != g.last.translationMM else { return }
        translationVelocity.add(translation, at: now)
        g.last.centerMM = touch.position
        g.last.translationMM = translation
        g.last.velocityMMPerSecond = translationVelocity.velocityInPlace(at: now)
        emitChange(&g, at: now, into: &out)
        edgeScrollPan?.gesture = g
    }
}
