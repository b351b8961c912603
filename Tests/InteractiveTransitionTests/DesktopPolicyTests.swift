import Foundation
import Testing
@testable import InteractiveTransition

/// Each desktop's rule on constructed gestures: (time s, progress) paths, released at the last.
@Suite struct DesktopPolicyTests {
    static func decide(_ preset: CompletionPolicyPreset, _ path: [(Double, Double)], input: CompletionInput = .touchpad,
                       velocity: Double = 0) -> CompletionDecision {
        var tracker = preset.policy.tracker(input: input, initialProgress: 0, at: 0)
        for (time, progress) in path { tracker.observe(progress: progress, at: time) }
        let (time, progress) = path.last!
        return tracker.decide(progress: progress, velocity: velocity, at: time)
    }

    /// A steady drag from 0 to `to` over `seconds`, one update every 10 ms.
    static func drag(to: Double, over seconds: Double, from: Double = 0, start: Double = 0) -> [(Double, Double)] {
        let steps = Int((seconds / 0.01).rounded())
        return (1...steps).map { i in (start + Double(i) * 0.01, from + (to - from) * Double(i) / Double(steps)) }
    }

    // GNOME touchpad: 0.6 units/ms with 400 units per page is 1.5 pages/s.
    @Test func gnomeBelowTheVelocityThresholdSnapsToTheNearestEnd() throws {
        // 0.4 over 1 s: 0.4 pages/s = 0.16 units/ms < 0.6: nearest end is 0.
        let slow = Self.decide(.gnome, Self.drag(to: 0.4, over: 1))
        #expect(!slow.shouldFinish)
        guard case .gnome(let d) = slow.reason else { Issue.record("not GNOME's reason"); return }
        #expect(abs(d.velocity - 0.16) < 1e-9)
        #expect(d.projectedProgress == nil && d.endProgress == 0)
        #expect(slow.reason.rule == "gnome-snap")
        // 0.6 slowly: nearest end is 1; exactly 0.5 ties to the first snap point, 0.
        #expect(Self.decide(.gnome, Self.drag(to: 0.6, over: 1.5)).shouldFinish)
        #expect(!Self.decide(.gnome, Self.drag(to: 0.5, over: 1.5)).shouldFinish)
    }

    @Test func gnomeAboveTheVelocityThresholdMovesAPageInTheDirectionOfTravel() throws {
        // 0.3 in the last 150 ms: 2 pages/s = 0.8 units/ms >= 0.6: one page forwards from 0.3.
        let path = Self.drag(to: 0.0, over: 0.5) + Self.drag(to: 0.3, over: 0.15, start: 0.5)
        let fast = Self.decide(.gnome, path)
        #expect(fast.shouldFinish)
        guard case .gnome(let d) = fast.reason else { Issue.record("not GNOME's reason"); return }
        #expect(abs(d.velocity - 0.8) < 1e-9)
        #expect(d.projectedProgress != nil)
        // 0.8 * 0.997/0.003/1000 = 0.266 pages projected: 0.566; the end animation
        // |0.7 / (0.8/400)| x 3 = 1050 ms, clamped to 400.
        #expect(abs(d.projectedProgress! - (0.3 + 0.8 * 0.997 / 0.003 / 1000)) < 1e-9)
        #expect(d.animationMS == 400)
        // The same fling backwards from 0.8 cancels.
        let back = Self.drag(to: 0.8, over: 0.8) + Self.drag(to: 0.5, over: 0.15, from: 0.8, start: 0.8)
        #expect(!Self.decide(.gnome, back).shouldFinish)
        // Only the last 150 ms count: a fast start then a stop snaps (0.45 -> cancel).
        let stopped = Self.drag(to: 0.45, over: 0.1) + [(0.3, 0.45), (0.45, 0.45)]
        #expect(Self.decide(.gnome, stopped).reason.rule == "gnome-snap")
        #expect(!Self.decide(.gnome, stopped).shouldFinish)
    }

    @Test func gnomeTouchscreenUsesItsOwnThresholdAndPage() {
        // 0.1 page in 150 ms on a 1080 px page: 0.72 units/ms: above touch's 0.3, forwards.
        let path = Self.drag(to: 0.1, over: 0.15)
        #expect(Self.decide(.gnome, path, input: .touchscreen).shouldFinish)
        // On a touchpad the same is 0.267 units/ms < 0.6: snaps back to 0.
        #expect(!Self.decide(.gnome, path, input: .touchpad).shouldFinish)
    }

    @Test func kwinFinishesStrictlyAboveHalf() {
        #expect(!Self.decide(.kwin, [(0.1, 0.5)], velocity: 50).shouldFinish)
        let above = Self.decide(.kwin, [(0.1, 0.51)], velocity: -50)
        #expect(above.shouldFinish)
        #expect(above.reason == .kwin(progress: 0.51, threshold: 0.5))
    }

    @Test func hyprlandDistanceRatioOrSpeedForces() {
        // Travel 0.5 x 300 = 150 >= 300 x 0.5: switches, slowly (1.5 units/update).
        let far = Self.decide(.hyprland, Self.drag(to: 0.5, over: 1))
        #expect(far.shouldFinish && far.reason.rule == "hyprland-distance")
        // 0.4 slowly: 120 < 150 and 1.2 units/update < 30: reverts.
        let short = Self.decide(.hyprland, Self.drag(to: 0.4, over: 1))
        #expect(!short.shouldFinish && short.reason.rule == "hyprland-cancel")
        // 0.3 in two updates: 45 units/update >= 30: forced although 90 < 150.
        let forced = Self.decide(.hyprland, [(0.01, 0.15), (0.02, 0.3)])
        #expect(forced.shouldFinish && forced.reason.rule == "hyprland-speed")
        guard case .hyprland(let d) = forced.reason else { Issue.record("not Hyprland's reason"); return }
        #expect(abs(d.averageSpeed - 45) < 1e-9 && abs(d.travel - 90) < 1e-9)
        // Under 2 units of travel never switches, however fast.
        #expect(!Self.decide(.hyprland, [(0.01, 0.006)]).shouldFinish)
    }

    @Test func androidBackTogglesOnReversal() {
        // 16 dp of 411 trigger (0.039), a continuous 32 dp (0.078) move switches.
        let out = Self.drag(to: 0.3, over: 0.3)
        let committed = Self.decide(.androidBack, out)
        #expect(committed.shouldFinish && committed.reason.rule == "android-triggered")
        // Back by 0.15 > 0.078: uncommitted, cancels on release although progress is 0.15.
        let back = out + Self.drag(to: 0.15, over: 0.15, from: 0.3, start: 0.3)
        let uncommitted = Self.decide(.androidBack, back)
        #expect(!uncommitted.shouldFinish && uncommitted.reason.rule == "android-moved-back")
        // On again by 0.1: committed again.
        let again = back + Self.drag(to: 0.25, over: 0.1, from: 0.15, start: 0.45)
        let recommitted = Self.decide(.androidBack, again)
        #expect(recommitted.shouldFinish && recommitted.reason.rule == "android-moved-on")
        guard case .androidBack(let d) = recommitted.reason else { Issue.record("not Android's reason"); return }
        #expect(d.switches == 2)
        // A small wobble back (0.04 < 0.078) keeps it committed; never passing 16 dp cancels.
        #expect(Self.decide(.androidBack, out + Self.drag(to: 0.26, over: 0.04, from: 0.3, start: 0.3)).shouldFinish)
        #expect(!Self.decide(.androidBack, Self.drag(to: 0.03, over: 0.1), velocity: 100).shouldFinish)
    }

    @Test func uikitSeedIgnoresVelocityAndSeedIsItsAlias() {
        #expect(CompletionPolicyPreset(named: "seed") == .uikitSeed)
        #expect(CompletionPolicyPreset(named: "uikit-seed")?.policy == .seed)
        #expect(!Self.decide(.uikitSeed, [(0.1, 0.5)], velocity: 100).shouldFinish)
        #expect(Self.decide(.uikitSeed, [(0.1, 0.51)], velocity: -100).shouldFinish)
    }

    @Test func settingsKeepOmittedFiguresAndRefuseAnotherKindsKeys() throws {
        let decoder = JSONDecoder()
        let hypr = try decoder.decode(CompletionPolicy.self, from: Data(#"{"kind": "hyprland", "cancelRatio": 0.3}"#.utf8))
        #expect(hypr.kind == .hyprland(HyprlandSwipeRule(distance: 300, cancelRatio: 0.3, minSpeedToForce: 30)))
        #expect(throws: DecodingError.self) {
            try decoder.decode(CompletionPolicy.self, from: Data(#"{"kind": "kwin", "cancelRatio": 0.3}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(CompletionPolicy.self, from: Data(#"{"kind": "hyprland", "cancelRatio": 2}"#.utf8))
        }
        // Without "kind", pinchlab's own rule as before.
        let own = try decoder.decode(CompletionPolicy.self, from: Data(#"{"progressThreshold": 0.6}"#.utf8))
        #expect(own.kind == .pinchlab && own.progressThreshold == 0.6 && own.flickVelocity == 1.5)
        // Every preset survives encoding and decoding.
        for preset in CompletionPolicyPreset.allCases {
            let data = try JSONEncoder().encode(preset.policy)
            #expect(try decoder.decode(CompletionPolicy.self, from: data) == preset.policy, "\(preset)")
        }
    }
}
