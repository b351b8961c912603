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
                // Half of them without turning: a turning pinch may read as a rotation to fusuma.
                let angle = n % 2 == 0 ? 0 : (random.next() - 0.5) * 60
                events += ToolStreams.pinch(scale: 0.4 + random.next() * 1.4, angle: angle, fingers: fingers, updates: updates, start: time)
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

    /// One tool's threshold from low to high, and how many gestures the tool acts on at each.
    struct Ladder {
        var name: String
        /// The counts, lowest threshold first.
        var counts: [Int]
    }

    private static func ladder<T>(_ name: String, _ thresholds: [T], _ count: (T) -> Int) -> Ladder {
        Ladder(name: name, counts: thresholds.map(count))
    }

    /// Every tool's ladders on seed `seed`'s streams.
    /// fusuma: a higher multiplier of any gesture's threshold never fires more (its oneshots repeat
    /// each 0.3 s while fast enough; fewer candidates never give more 0.3 s-apart firings).
    /// InputActions: a higher motion threshold never fires more on straight swipes (a curving one's
    /// windows, and so its turns, change with it), nor does a higher trigger threshold.
    private func ladders(seed: UInt64) -> [Ladder] {
        let screen = screenStream(seed: seed), pad = touchpadStream(seed: seed), mixed = mixedStream(seed: seed)
        var ladders = [
            Self.ladder("lisgd -t", Array(stride(from: 0, through: 600, by: 25))) { t in
                var s = LisgdSettings.defaults
                s.threshold = t
                return LisgdEmulator(settings: s).judge(screen).count
            },
            Self.ladder("libinput-gestures swipe_threshold", Array(stride(from: 0, through: 800, by: 20))) { t in
                var s = LibinputGesturesSettings.defaults
                s.swipeThreshold = t
                return LibinputGesturesEmulator(settings: s).judge(pad).count
            },
            Self.ladder("touchegg start", Array(stride(from: 0.0, through: 400, by: 10))) { start in
                var s = ToucheggSettings.defaults
                s.daemonStartThreshold = start
                return ToucheggEmulator(settings: s).judge(pad).count
            },
            Self.ladder("touchegg action_execute_threshold", Array(stride(from: 0, through: 100, by: 5))) { threshold in
                var s = ToucheggSettings.defaults
                s.actionExecuteThreshold = threshold
                return ToucheggEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
            },
            Self.ladder("KWin minimum delta", Array(stride(from: 50.0, through: 800, by: 25))) { delta in
                var s = KWinGestureSettings.defaults
                s.minimumDelta = delta
                return KWinGestureEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
            },
            Self.ladder("InputActions motion_threshold_3", Array(stride(from: 0.0, through: 600, by: 10))) { t in
                var s = InputActionsSettings.defaults
                s.motionThreshold3 = t
                return InputActionsEmulator(settings: s).judge(pad).filter { $0.executed == true }.count
            },
        ]
        for gesture in FusumaSettings.Gesture.allCases {
            ladders.append(Self.ladder("fusuma threshold.\(gesture.rawValue)", Array(stride(from: 0.0, through: 4, by: 0.1))) { k in
                var s = FusumaSettings()
                s.threshold[gesture] = k
                return FusumaEmulator(settings: s).judge(mixed).count
            })
        }
        for (kind, top, step) in [(InputActionsTrigger.Kind.swipe, 800.0, 20.0), (.pinch, 1.5, 0.05), (.rotate, 40, 1), (.hold, 1600, 50)] {
            ladders.append(Self.ladder("InputActions \(kind.rawValue) threshold", Array(stride(from: 0, through: top, by: step))) { threshold in
                var s = InputActionsSettings.defaults
                s.triggers = s.triggers.map { var t = $0; if t.kind == kind { t.thresholdMin = threshold }; return t }
                return InputActionsEmulator(settings: s).judge(kind == .swipe ? pad : mixed).filter { $0.executed == true }.count
            })
        }
        return ladders
    }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func higherThresholdsFireNoMore(seed: UInt64) {
        for ladder in ladders(seed: seed) {
            for (index, count) in ladder.counts.enumerated().dropFirst() {
                #expect(count <= ladder.counts[index - 1], "\(ladder.name), step \(index), seed \(seed): \(ladder.counts)")
            }
        }
    }

    /// Not vacuous: over the seeds, every ladder fires more at its lowest threshold than at its
    /// highest (a ladder whose tool never fires, or fires whatever the threshold, proves nothing).
    @Test func everyLadderMoves() {
        var low: [String: Int] = [:], high: [String: Int] = [:]
        for seed in 1...20 as ClosedRange<UInt64> {
            for ladder in ladders(seed: seed) {
                low[ladder.name, default: 0] += ladder.counts.first ?? 0
                high[ladder.name, default: 0] += ladder.counts.last ?? 0
            }
        }
        #expect(low.count == 14)
        for (name, count) in low.sorted(by: { $0.key < $1.key }) {
            #expect(count > high[name] ?? 0, "\(name): \(count) at its lowest threshold, \(high[name] ?? 0) at its highest")
        }
    }
}
