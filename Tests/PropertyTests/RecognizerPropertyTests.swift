import PinchlabTestSupport
import Testing
import PropertyBased
import GestureCore
import GestureLab

#if canImport(Glibc)
import Glibc
#endif

/// Whatever touches arrive, the recognizer reports gestures in a legal order with finite values, and
/// `finish(at:)` leaves nothing open.
@Suite struct RecognizerPropertyTests {
    static let streamCount = 300

    /// Runs events through assembler and recognizer, then finishes; returns the checker.
    static func recognize(_ events: [InputEvent], on device: DeviceDescription) -> (GestureOrderChecker, TouchGestureRecognizer) {
        var assembler = TouchFrameAssembler(device: device)
        var recognizer = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration(device: device))
        var checker = GestureOrderChecker()
        for event in events {
            guard let frame = assembler.consume(event) else { continue }
            for gesture in recognizer.process(frame) { checker.check(gesture) }
        }
        let end = events.last?.time ?? .zero
        if let frame = assembler.finish(at: end) {
            for gesture in recognizer.process(frame) { checker.check(gesture) }
        }
        for gesture in recognizer.finish(at: end) { checker.check(gesture) }
        return (checker, recognizer)
    }

    @Test func randomProtocolBStreamsGiveLegalGestureSequences() async {
        await propertyCheck(count: Self.streamCount, input: Gen.uint32().array(of: 0...400), Gen.int(in: 0...1)) { words, index in
            let device = EventStreams.devices[index]
            let (checker, recognizer) = Self.recognize(EventStreams.protocolB(words, on: device), on: device)
            #expect(checker.violations == [])
            #expect(checker.open == nil, "a gesture is still open after finish(at:)")
            #expect(recognizer.gestureInFlight == nil)
            #expect(checker.beganCount == checker.closedCount, "every began is closed by exactly one ended/cancelled")
        }
    }

    /// Found by the property above (CI, 2026-11-23): frames at 2.2 s, 2.18 s, 2.188 s. The frame
    /// that went back cancelled the pan at 2.2 s, and the next one began a pan at 2.188 s, before
    /// that end. The recognizer's clock now stays at the latest time seen.
    @Test func aStreamWhoseTimeGoesBackNeverReportsAnEarlierGesture() {
        let device = EventStreams.devices[1]
        let events = EventStreams.protocolB([414211120, 201047396, 1301493686, 158653812, 23002812, 3980563766], on: device)
        let (checker, recognizer) = Self.recognize(events, on: device)
        #expect(checker.violations == [])
        #expect(checker.open == nil && recognizer.gestureInFlight == nil)
    }

    @Test func randomSynthesizedGesturesGiveLegalGestureSequences() async {
        var recognizedAny = false
        await propertyCheck(count: Self.streamCount, input: Gen.uint64(), Gen.int(in: 0...1)) { seed, index in
            let device = EventStreams.devices[index]
            let events = EventStreams.synthesized(seed: seed, on: device)
            let (checker, recognizer) = Self.recognize(events, on: device)
            #expect(checker.violations == [])
            #expect(checker.open == nil)
            #expect(recognizer.gestureInFlight == nil)
            #expect(checker.beganCount == checker.closedCount)
            if checker.beganCount > 0 { recognizedAny = true }
        }
        // The generated gestures are real enough to be recognized, so the rules are exercised.
        #expect(recognizedAny)
    }

    /// A parallel two-finger scroll never begins a pinch with a third touch resting beside it:
    /// anywhere on a touchpad or touchscreen, or in the touchpad's thumb band below the fingers; and
    /// it is recognized as a pan. With the thumb in the band the pan is the two fingers', begun
    /// within 1.5 mm (min_move) plus a frame and the jitter of motion since it could be judged.
    @Test func parallelScrollBesideAStillTouchNeverPinches() async {
        var bandCases = 0
        await propertyCheck(count: Self.streamCount, input: Gen.uint64()) { seed in
            let scroll = ScrollBesideStillTouch(seed: seed)
            let configuration = GestureRecognizerConfiguration(device: scroll.device)
            var recognizer = TouchGestureRecognizer(configuration: configuration)
            var checker = GestureOrderChecker()
            var gestures: [GestureEvent] = []
            for frame in scroll.frames {
                for g in recognizer.process(frame) { checker.check(g); gestures.append(g) }
            }
            for g in recognizer.finish(at: scroll.frames.last?.time ?? .zero) { checker.check(g); gestures.append(g) }
            #expect(checker.violations == [])
            #expect(!gestures.contains { $0.kind == .pinch }, "pinch: \(scroll)")
            let began = gestures.first { $0.state == .began && $0.kind != .hold }  // fingers resting first may hold
            #expect(began?.kind == .pan, "no pan: \(scroll)")
            if scroll.thumbInBand, let began {
                bandCases += 1
                #expect(began.fingerCount == 2, "the thumb joined the pan: \(scroll)")
                // A still touch down for the quick hold's 40 ms before the fingers land holds; the
                // landing fingers end that hold after the finger-count debounce (libinput's too),
                // and the fingers are judged from there.
                let holdEnd = gestures.first { $0.kind == .hold && ($0.state == .cancelled || $0.state == .ended) }?.time
                let judgedFrom = max(scroll.motionStart, holdEnd ?? scroll.motionStart)
                let sinceMotionS = Double(began.time.totalMicroseconds - judgedFrom.totalMicroseconds) / 1_000_000
                let travelled = scroll.speedMMPerSecond * sinceMotionS
                // After a hold, the fingers are measured afresh from the first frame past the debounce:
                // up to one more frame of travel.
                let frames = holdEnd == nil ? 1.0 : 2.0
                #expect(travelled <= 1.5 + scroll.speedMMPerSecond * 0.014 * frames + 0.6, "began after \(travelled) mm: \(scroll)")
            }
        }
        #expect(bandCases > 0)
    }
}

/// Two fingers moving together in a straight line at constant speed beside a third touch that
/// lands first and stays still (with jitter): anywhere on the surface at least 8 mm from the
/// fingers' paths, or, on the touchpad, in the thumb band with the fingers above it.
struct ScrollBesideStillTouch: CustomStringConvertible {
    var device: DeviceDescription
    var thumbInBand: Bool
    var fingerStarts: [PointMM]
    var still: PointMM
    var velocity: PointMM
    var speedMMPerSecond: Double
    var motionStart: EventTime
    var frames: [TouchFrame] = []

    var description: String {
        "\(device.deviceClass) fingers \(fingerStarts) velocity \(velocity) still \(still) band \(thumbInBand)"
    }

    init(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let onTouchscreen = random.next() % 3 == 0
        device = onTouchscreen ? .presetTouchscreen : .presetTouchpad
        let size = onTouchscreen ? PointMM(x: 290, y: 170) : PointMM(x: 100, y: 60)
        thumbInBand = !onTouchscreen && random.next() % 2 == 0
        let durationS = 0.35
        // Fingers stay 5 mm inside the surface, and above the 15 mm band when a thumb rests in it.
        let box = (min: PointMM(x: 5, y: 5), max: PointMM(x: size.x - 5, y: thumbInBand ? size.y - 17 : size.y - 5))
        func inside(_ p: PointMM) -> Bool { p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y }
        func segmentDistance(_ p: PointMM, _ a: PointMM, _ b: PointMM) -> Double {
            let d = b - a
            let t = max(0, min(1, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / max(d.x * d.x + d.y * d.y, 1e-12)))
            return p.distance(to: a + d * t)
        }
        var starts: [PointMM] = []
        var still = PointMM(x: 0, y: 0)
        var velocity = PointMM(x: 0, y: 0)
        var speed = 0.0
        for _ in 0..<1000 {
            speed = random.uniform(40...80)
            let heading = random.uniform(0...(2 * Double.pi))
            velocity = PointMM(x: cos(heading), y: sin(heading)) * speed
            let spacing = random.uniform(12...35)
            let across = random.uniform(0...Double.pi)
            let offset = PointMM(x: cos(across), y: sin(across)) * (spacing / 2)
            let center = PointMM(x: random.uniform(box.min.x...box.max.x), y: random.uniform(box.min.y...box.max.y))
            starts = [center - offset, center + offset]
            let travel = velocity * durationS
            guard starts.allSatisfy({ inside($0) && inside($0 + travel) }) else { continue }
            still = thumbInBand
                ? PointMM(x: random.uniform(5...(size.x - 5)), y: random.uniform((size.y - 14)...(size.y - 2)))
                : PointMM(x: random.uniform(5...(size.x - 5)), y: random.uniform(5...(size.y - 5)))
            if starts.allSatisfy({ segmentDistance(still, $0, $0 + travel) >= 8 }) { break }
        }
        fingerStarts = starts
        self.still = still
        self.velocity = velocity
        speedMMPerSecond = speed

        // The still touch lands first; the fingers 40-60 ms later, a few ms apart, and start moving
        // 30 ms after that; frames every 7-14 ms.
        let fingerJitter = random.uniform(0...0.2)
        let thumbJitter = random.uniform(0...0.15)
        let landS = [random.uniform(0.04...0.06), random.uniform(0.04...0.06)]
        let moveS = landS.max()! + 0.03
        let endS = moveS + durationS
        let origin = EventTime(totalMicroseconds: 5_000_000)
        func at(_ s: Double) -> EventTime { EventTime(totalMicroseconds: origin.totalMicroseconds + Int64((s * 1_000_000).rounded())) }
        motionStart = at(moveS)
        var t = 0.0
        var fingerCount = 0
        while true {
            var frame = TouchFrame(time: at(t))
            let lifting = t >= endS
            frame.append(Touch(id: 3, trackingID: 3, slot: 0, phase: lifting ? .ended : (t == 0 ? .began : .moved),
                               position: still + PointMM(x: random.uniform(-thumbJitter...thumbJitter),
                                                         y: random.uniform(-thumbJitter...thumbJitter))))
            fingerCount = lifting ? 0 : 1
            for i in 0..<2 where t >= landS[i] {
                let p = fingerStarts[i] + velocity * max(0, min(t, endS) - moveS)
                    + PointMM(x: random.uniform(-fingerJitter...fingerJitter), y: random.uniform(-fingerJitter...fingerJitter))
                let phase: TouchPhase = lifting ? .ended : (frames.last?.touches.first(withID: UInt64(i + 1)) == nil ? .began : .moved)
                frame.append(Touch(id: UInt64(i + 1), trackingID: Int32(i + 1), slot: Int32(i + 1), phase: phase, position: p))
                if !lifting { fingerCount += 1 }
            }
            frame.fingerCount = fingerCount
            frames.append(frame)
            if lifting { break }
            t += random.uniform(0.007...0.014)
        }
    }
}
