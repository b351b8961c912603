import GestureTools
import Testing

/// A higher threshold never makes a tool act on more gestures: checked on seeded random streams
/// (strokes and swipes of random lengths, directions and durations) at a ladder of thresholds.
@Suite struct MonotonicityTests {
    /// A small deterministic generator (SplitMix64), so a failure names its seed.
    struct Seeded {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    private func screenStream(seed: UInt64) -> ToolStream {
        var random = Seeded(state: seed)
        var events: [ToolEvent] = []
        var time = 0.0
        for _ in 0..<12 {
            let from = (random.next() * 1000, random.next() * 1000)
            let to = (from.0 + (random.next() - 0.5) * 600, from.1 + (random.next() - 0.5) * 600)
            events += ToolStreams.stroke(from: from, to: to, seconds: 0.1 + random.next(), start: time)
            time += 2
        }
        return ToolStreams.screenStream(events)
    }

    private func touchpadStream(seed: UInt64) -> ToolStream {
        var random = Seeded(state: seed)
        var events: [ToolEvent] = []
        var time = 0.0
        for _ in 0..<12 {
            events += ToolStreams.swipe(dx: (random.next() - 0.5) * 800, dy: (random.next() - 0.5) * 800, fingers: 3 + Int(random.next() * 2),
                                        start: time, seconds: 0.1 + random.next() * 2)
            time += 3
        }
        return ToolStreams.touchpadStream(events)
    }

    /// Pinches (some turning), holds and swipes of random size and pace, as fusuma and
    /// InputActions read them: accelerated deltas twice the unaccelerated ones.
    private func mixedStream(seed: UInt64) -> ToolStream {
        var random = Seeded(state: seed &+ 1000)
        var events: [ToolEvent] = []
        var time = 0.0
        for n in 0..<12 {
            let updates = 3 + Int(random.next() * 20)
            let seconds = 0.05 + random.next() * 1.5
            let fingers = 2 + Int(random.next() * 3)
            switch n % 3 {
            case 0:
                events += ToolStreams.pinch(scale: 0.4 + random.next() * 1.4, angle: (random.next() - 0.5) * 60, fingers: fingers,
                                            updates: updates, start: time)
            case 1:
                events.append(.gesture(GestureStep(kind: .hold, phase: .begin, time: time, fingers: fingers)))
                events.append(.gesture(GestureStep(kind: .hold, phase: .end, time: time + seconds, fingers: fingers)))
            default:
                let dx = (random.next() - 0.5) * 600, dy = (random.next() - 0.5) * 600
                for case .gesture(var g) in ToolStreams.swipe(dx: dx, dy: dy, fingers: max(3, fingers), updates: updates, start: time,
                                                              seconds: seconds) {
                    g.acceleratedDX = g.dx * 2
                    g.acceleratedDY = g.dy * 2
                    events.append(.gesture(g))
                }
            }
            time += 3
        }
        return ToolStreams.touchpadStream(events)
    }

    /// fusuma: a higher multiplier of any gesture's threshold never fires more. (Its oneshots
    /// repeat each 0.3 s while fast enough; fewer candidates never give more 0.3 s-apart firings.)
    /// InputActions: a higher motion threshold never fires more on straight swipes (a curving
    /// one's windows, and so its turns, change with it), nor does a higher trigger threshold.
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func fusumaAndInputActionsFireNoMoreAtHigherThresholds(seed: UInt64) {
        let mixed = mixedStream(seed: seed), pad = touchpadStream(seed: seed)
        for gesture in FusumaSettings.Gesture.allCases {
            expectNonIncreasing(Array(stride(from: 0.0, through: 4, by: 0.1)), "fusuma threshold.\(gesture.rawValue)", seed: seed) { k in
                var s = FusumaSettings()
                s.threshold[gesture] = k
                return FusumaEmulator(settings: s).judge(mixed).count
            }
        }
        expectNonIncreasing(Array(stride(from: 0.0, through: 600, by: 10)), "InputActions motion_threshold_3", seed: seed) { t in
            var s = InputActionsSettings.defaults
            s.motionThreshold3 = t
            return InputActionsEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
        }
        for (kind, top, step) in [(InputActionsTrigger.Kind.swipe, 800.0, 20.0), (.pinch, 1.5, 0.05), (.rotate, 40, 1), (.hold, 1600, 50)] {
            expectNonIncreasing(Array(stride(from: 0, through: top, by: step)), "InputActions \(kind.rawValue) threshold", seed: seed) { threshold in
                var s = InputActionsSettings.defaults
                s.triggers = s.triggers.map { var t = $0; if t.kind == kind { t.thresholdMin = threshold }; return t }
                return InputActionsEmulator(settings: s).judge(kind == .swipe ? pad : mixed).filter { $0.executed == true }.count
            }
        }
    }

    /// `count(threshold)` never rises as `thresholds` rise.
    private func expectNonIncreasing<T>(_ thresholds: [T], _ what: String, seed: UInt64, count: (T) -> Int) {
        var last = Int.max
        for threshold in thresholds {
            let now = count(threshold)
            #expect(now <= last, "\(what) \(threshold), seed \(seed)")
            last = now
        }
    }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func higherThresholdsFireNoMore(seed: UInt64) {
        let screen = screenStream(seed: seed), pad = touchpadStream(seed: seed)
        expectNonIncreasing(Array(stride(from: 0, through: 600, by: 25)), "lisgd -t", seed: seed) { t in
            var s = LisgdSettings.defaults
            s.threshold = t
            return LisgdEmulator(settings: s).judge(screen).count
        }
        expectNonIncreasing(Array(stride(from: 0, through: 800, by: 20)), "libinput-gestures swipe_threshold", seed: seed) { t in
            var s = LibinputGesturesSettings.defaults
            s.swipeThreshold = t
            return LibinputGesturesEmulator(settings: s).judge(pad).count
        }
        expectNonIncreasing(Array(stride(from: 0.0, through: 400, by: 10)), "touchegg start", seed: seed) { start in
            var s = ToucheggSettings.defaults
            s.daemonStartThreshold = start
            return ToucheggEmulator(settings: s).judge(pad).count
        }
        expectNonIncreasing(Array(stride(from: 0, through: 100, by: 5)), "touchegg action_execute_threshold", seed: seed) { threshold in
            var s = ToucheggSettings.defaults
            s.actionExecuteThreshold = threshold
            return ToucheggEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
        }
        expectNonIncreasing(Array(stride(from: 50.0, through: 800, by: 25)), "KWin minimum delta", seed: seed) { delta in
            var s = KWinGestureSettings.defaults
            s.minimumDelta = delta
            return KWinGestureEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
        }
    }
}
