import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Every began, ended and cancelled event names the rule that decided it, with its evidence in
/// physical units (the invariant in `checkInvariants` checks the presence on every test's events;
/// these check the values).
@Suite struct RecognizerRuleTests {
    @Test func opposingFingersShowTheAngleAndEachFingersMove() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ]
        let events = recognize(makeFrames(fingers))
        let began = try #require(events.first)
        let e = try #require(began.decision?.evidence)
        #expect(began.decision?.rule == .opposingFingers)
        let angle = try #require(e.angleDegrees), moved = try #require(e.movedMM)
        let otherMoved = try #require(e.otherMovedMM), spanChange = try #require(e.spanChangeMM)
        #expect(abs(angle - 180) < 1e-6)
        #expect(e.angleLimitDegrees == 135)
        // Began at 40 ms: 1.2 mm each at 30 mm/s.
        #expect(abs(moved - 1.2) < 1e-9 && abs(otherMoved - 1.2) < 1e-9)
        #expect(e.moveLimitMM == 1)
        #expect(abs(spanChange - 2.4) < 1e-9)
        let ended = try #require(events.last)
        #expect(ended.decision?.rule == .allLifted)
    }

    @Test func aScrollNamesSameDirection() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 30, y: 30), PointMM(x: 0, y: 80))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 45, y: 30), PointMM(x: 0, y: 80))),
        ]
        let began = try #require(recognize(makeFrames(fingers)).first)
        #expect(began.kind == .pan)
        #expect(began.decision?.rule == .sameDirection)
        #expect(began.decision?.evidence.angleDegrees == 0)
    }

    /// A semi-MT touchpad reports a bounding box, not fingers: as in libinput, two fingers moving
    /// apart scroll, and say why.
    @Test func aSemiMTTouchpadNeverPinches() throws {
        var semiMT = DeviceDescription.presetTouchpad
        semiMT.properties.insert(.semiMT)
        let configuration = GestureRecognizerConfiguration(device: semiMT)
        #expect(configuration.device.fingerPositionsTracked == false)
        #expect(GestureRecognizerConfiguration(device: .presetTouchpad).device.fingerPositionsTracked == nil)
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ]
        let events = recognize(makeFrames(fingers), configuration: configuration)
        #expect(!events.contains { $0.kind == .pinch })
        let began = try #require(events.first)
        #expect(began.kind == .pan && began.decision?.rule == .pinchUnavailable)
    }

    @Test func theEndOfTheStreamIsNamed() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 900, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 900, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ]
        let events = recognize(makeFrames(fingers, untilMS: 200))
        #expect(events.last?.state == .cancelled)
        #expect(events.last?.decision?.rule == .endOfStream)
    }

    @Test func aJumpNamesTheTouchAndItsNormalizedDistance() throws {
        var frames = makeFrames([
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 500, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ])
        // Touch 2 leaps 30 mm sideways in the 12 ms... here 10 ms frame at 300 ms: 36 mm per 12 ms.
        for i in frames.indices where milliseconds(frames[i].time) >= 300 {
            var moved = TouchFrame(time: frames[i].time)
            for t in frames[i].touches {
                var t = t
                if t.id == 2 { t.position.x += 30 }
                moved.append(t)
            }
            moved.fingerCount = frames[i].fingerCount
            frames[i] = moved
        }
        let events = recognize(frames)
        let cancel = try #require(events.first { $0.state == .cancelled })
        #expect(milliseconds(cancel.time) == 300)
        #expect(cancel.decision?.rule == .touchJump)
        #expect(cancel.decision?.evidence.touch == 2)
        let jump = try #require(cancel.decision?.evidence.jumpMM)
        #expect(abs(jump - 36) < 0.1)
        // The frame before, the finger moved as the scripted pinch does: far less than the 7 mm increase.
        let previous = try #require(cancel.decision?.evidence.previousStepMM)
        #expect(previous >= 0 && previous < 2, "\(previous)")
        // The touch restarted where it landed: a pinch is recognized again from there.
        #expect(states(events).suffix(3) == ["pinch.began", "pinch.changed", "pinch.ended"])
    }

    @Test func anUnexpectedInputIsCountedAsARecognizerBugAndChangesNothing() {
        var r = TouchGestureRecognizer()
        r.assertsOnBug = false
        var out = GestureEvents()
        // A switch timeout while idle: the machine has no such transition.
        r.handleForTesting(.switchTimeout, at: eventTime(ms: 5), into: &out)
        #expect(r.bugCount == 1)
        #expect(r.mode == .idle)
        #expect(out.isEmpty)
        #expect(r.stateChanges.count == 1 && r.stateChanges[0].isBug)
    }

    @Test func quietFramesRecordNoStateChange() {
        var r = TouchGestureRecognizer()
        let frames = makeFrames([
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ])
        var changes: [(Double, RecognizerMode, RecognizerMode)] = []
        for f in frames {
            _ = r.process(f)
            for c in r.stateChanges { changes.append((milliseconds(c.time), c.from, c.to)) }
        }
        #expect(changes.map { "\($0.1.rawValue)>\($0.2.rawValue)" } == ["idle>undecided", "undecided>pinch", "pinch>idle"])
    }

    /// `MotionRule(_:)` reads `name` backwards: each motion rule from its name, and no motion rule
    /// from a rule decided elsewhere.
    @Test func aMotionRuleIsFoundByItsNameAndOnlyByIt() {
        for rule in GestureRule.allCases {
            let named = MotionRule.inOrder.first { $0.name == rule }
            #expect(MotionRule(rule) == named, "\(rule)")
        }
    }
}
