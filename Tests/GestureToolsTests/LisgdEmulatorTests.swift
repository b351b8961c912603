import GestureTools
import Testing

/// lisgd 0.3.7's figures, each from both sides (lisgd.c `gesturecalculateswipe`, `touchup`,
/// `gesturecalculateedge`, `gesturecalculatedistance`).
@Suite struct LisgdEmulatorTests {
    private func fired(_ events: [ToolEvent], _ configure: (inout LisgdSettings) -> Void = { _ in }) -> [FiredGesture] {
        var settings = LisgdSettings.defaults
        configure(&settings)
        return LisgdEmulator(settings: settings).judge(ToolStreams.screenStream(events))
    }

    @Test func aSwipeOfExactlyTheThresholdFiresAndOneJustShorterDoesNot() {
        let at = fired(ToolStreams.stroke(from: (300, 500), to: (425, 500)))
        #expect(at.map(\.gesture) == ["LR"])
        #expect(at.first?.fingers == 1)
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (424.99, 500))).isEmpty)
        // -t moves the edge.
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (425, 500))) { $0.threshold = 126 }.isEmpty)
    }

    @Test func theTimeoutIsStrictInWholeMilliseconds() {
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (500, 500), seconds: 0.799999)).count == 1)
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (500, 500), seconds: 0.8)).isEmpty)
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (500, 500), seconds: 0.8)) { $0.timeoutMS = 801 }.count == 1)
    }

    @Test func directionWindowsAreInclusiveAtTheLeniency() {
        // 15 degrees right of up is still DU; 15.5 is in the gap before DLUR (30).
        func towards(_ degrees: Double) -> [String] {
            let r = degrees * Double.pi / 180
            return fired(ToolStreams.stroke(from: (500, 500), to: (500 + 200 * sin(r), 500 - 200 * cos(r)))).map(\.gesture)
        }
        #expect(towards(14.9) == ["DU"])
        #expect(towards(15.5) == [])
        // Inclusive at the edge, told apart exactly: -r 0 and a stroke straight up (0 degrees) is DU,
        // straight right (90) LR.
        #expect(fired(ToolStreams.stroke(from: (500, 500), to: (500, 300))) { $0.degreesLeniency = 0 }.map(\.gesture) == ["DU"])
        #expect(fired(ToolStreams.stroke(from: (300, 500), to: (500, 500))) { $0.degreesLeniency = 0 }.map(\.gesture) == ["LR"])
        #expect(towards(45) == ["DLUR"])
        #expect(towards(180) == ["UD"])
        #expect(towards(270) == ["RL"])
        #expect(towards(315) == ["DRUL"])
    }

    @Test func fingersAreThoseThatWentTheFirstLiftedOnesWay() {
        let two = ToolStreams.stroke(from: (300, 400), to: (600, 400), seconds: 0.4, slot: 0)
            + ToolStreams.stroke(from: (300, 600), to: (600, 600), seconds: 0.5, slot: 1)
        let sorted = two.sorted { $0.time < $1.time }
        #expect(fired(sorted).map { "\($0.fingers) \($0.gesture)" } == ["2 LR"])
        // The last lifted went the other way: it decides the gesture, the first lifted's way the count.
        let opposite = (ToolStreams.stroke(from: (300, 400), to: (600, 400), seconds: 0.4, slot: 0)
            + ToolStreams.stroke(from: (600, 600), to: (300, 600), seconds: 0.5, slot: 1)).sorted { $0.time < $1.time }
        #expect(fired(opposite).map { "\($0.fingers) \($0.gesture)" } == ["1 RL"])
    }

    @Test func edgesAndLengthClasses() {
        let fromLeft = fired(ToolStreams.stroke(from: (50, 500), to: (400, 500)))
        #expect(fromLeft.first?.figures.edge == "L")
        #expect(fromLeft.first?.figures.lengthClass == "M")  // 350 >= 0.33 x 1000
        let inside = fired(ToolStreams.stroke(from: (50.5, 500), to: (200, 500)))
        #expect(inside.first?.figures.edge == "N")
        #expect(inside.first?.figures.lengthClass == "S")
        #expect(fired(ToolStreams.stroke(from: (100, 500), to: (760, 500))).first?.figures.lengthClass == "L")
    }

    @Test func aBindingFiltersWhatFires() {
        let stroke = ToolStreams.stroke(from: (300, 500), to: (600, 500))
        #expect(fired(stroke) { $0.bindings = [LisgdBinding(fingers: 1, swipe: .RL, command: "x")] }.isEmpty)
        #expect(fired(stroke) { $0.bindings = [LisgdBinding(fingers: 1, swipe: .LR, command: "x")] }.count == 1)
        #expect(fired(stroke) { $0.bindings = [LisgdBinding(fingers: 1, swipe: .LR, distance: .long, command: "x")] }.isEmpty)
        // -o 1 turns the binding DU into LR.
        #expect(fired(stroke) { $0.bindings = [LisgdBinding(fingers: 1, swipe: .DU, command: "x")]; $0.orientation = 1 }.count == 1)
    }
}

#if canImport(Glibc)
import Glibc
#endif
