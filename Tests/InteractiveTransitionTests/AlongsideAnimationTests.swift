import Testing
@testable import InteractiveTransition

/// `animateAlongside(_:)`: a registered value follows every change of the transition's progress and
/// ends exactly on its to-value (finished) or its from-value (cancelled).
@Suite struct AlongsideAnimationTests {
    /// Seed 003's blur: alpha 0 -> 0.4 alongside the presentation.
    static let blur = try! AlongsideAnimation(name: "blurAlpha", from: 0, to: 0.4, limits: 0...1)
    /// A value whose interpolation does not land on its ends by itself (0.1 + (0.7 - 0.1) x p).
    static let badge = try! AlongsideAnimation(name: "badgeY", from: 0.1, to: 0.7)

    /// After any call that moves the transition, every alongside value is its function of the progress.
    static func expectFollowing(_ t: PercentDrivenTransition, sourceLocation: SourceLocation = #_sourceLocation) {
        for animation in t.alongsideAnimations {
            #expect(animation.value == animation.value(atProgress: t.progress), "\(animation.name) at \(t.progress)",
                    sourceLocation: sourceLocation)
            #expect(animation.value.isFinite, sourceLocation: sourceLocation)
        }
    }

    @Test func followsTheGestureAndEveryCompletionSampleThenEndsOnTheToValue() throws {
        var t = Fixtures.transition(.zoomPresent)
        try t.animateAlongside(Self.blur)
        try t.animateAlongside(Self.badge)
        #expect(t.alongsideValue(named: "blurAlpha") == 0 && t.alongsideValue(named: "badgeY") == 0.1)
        t.begin(at: 0)
        for (index, progress) in [0.1, 0.3, 0.25, 0.6].enumerated() {
            t.update(progress, at: 0.1 * Double(index + 1))
            #expect(isClose(t.alongsideValue(named: "blurAlpha")!, 0.4 * progress, tolerance: 1e-15))
            #expect(isClose(t.alongsideValue(named: "badgeY")!, 0.1 + 0.6 * progress, tolerance: 1e-15))
        }
        t.finish(at: 0.5)                     // ease-in-out from 0.6, 0.4 s
        var samples: [Double] = []
        var time = 0.5
        while !t.phase.isTerminal {
            time += 1.0 / 60
            t.tick(at: time)
            Self.expectFollowing(t)
            samples.append(t.alongsideValue(named: "blurAlpha")!)
        }
        // Every sample moved with the curve (never backwards), and the end is the to-value exactly.
        #expect(samples.count >= 20)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(samples.dropLast().allSatisfy { $0 > 0.4 * 0.6 && $0 < 0.4 })
        #expect(t.alongsideValue(named: "blurAlpha") == 0.4)
        #expect(t.alongsideValue(named: "badgeY") == 0.7)
    }

    @Test func aCancelledTransitionLeavesTheFromValueExactly() throws {
        // Seed 003's underdamped spring thrown back hard overshoots below progress 0 on the way.
        var t = Fixtures.transition(.panDismiss)
        try t.animateAlongside(Self.badge)
        try t.animateAlongside(Self.blur)
        t.update(0.37, at: 0)
        t.cancel(at: 0.1, velocity: -6)
        var overshot = false
        var time = 0.1
        while !t.phase.isTerminal {
            time += 0.002
            t.tick(at: time)
            Self.expectFollowing(t)
            if t.progress < 0 {
                overshot = true
                #expect(t.alongsideValue(named: "badgeY")! < 0.1)    // unbounded: follows the overshoot
                #expect(t.alongsideValue(named: "blurAlpha") == 0)   // bounded: clamped into its limits
            }
        }
        #expect(overshot)
        #expect(t.phase == .cancelled)
        #expect(t.alongsideValue(named: "badgeY") == 0.1)            // bit for bit, not 0.1 + 0.6 x tiny
        #expect(t.alongsideValue(named: "blurAlpha") == 0)
        #expect(t.alongsideAnimations.map(\.value) == t.alongsideAnimations.map(\.fromValue))
    }

    @Test func followsAPauseAndTheGestureThatTookItBack() throws {
        var t = Fixtures.transition(.pinchDismiss)
        try t.animateAlongside(Self.badge)
        t.update(0.8, at: 0)
        t.finish(at: 0.1)
        t.tick(at: 0.15)
        t.pause(at: 0.15)
        Self.expectFollowing(t)
        t.update(0.2, at: 0.2)
        #expect(isClose(t.alongsideValue(named: "badgeY")!, 0.1 + 0.6 * 0.2, tolerance: 1e-15))
        t.cancel(at: 0.3)
        Fixtures.runToEnd(&t, from: 0.3)
        #expect(t.alongsideValue(named: "badgeY") == 0.1)
    }

    @Test func registeredMidwayItShowsTheCurrentProgressAtOnce() throws {
        var t = Fixtures.transition(.zoomPresent)
        t.update(0.5, at: 0)
        try t.animateAlongside(Self.blur)
        #expect(t.alongsideValue(named: "blurAlpha") == 0.2)
        t.finish(at: 0.1)
        t.tick(at: 0.2)
        try t.animateAlongside(Self.badge)    // also while the completion runs
        Self.expectFollowing(t)
        Fixtures.runToEnd(&t, from: 0.2)
        #expect(t.alongsideValue(named: "badgeY") == 0.7)
    }

    @Test func misuseIsATypedError() throws {
        var t = Fixtures.transition(.zoomPresent)
        try t.animateAlongside(Self.blur)
        #expect(throws: TransitionError.self) { try t.animateAlongside(Self.blur) }       // same name twice
        #expect(t.alongsideAnimations.count == 1)
        #expect(throws: TransitionError.self) { try AlongsideAnimation(name: "x", from: .nan, to: 1) }
        #expect(throws: TransitionError.self) { try AlongsideAnimation(name: "x", from: 0, to: .infinity) }
        #expect(throws: TransitionError.self) { try AlongsideAnimation(name: "x", from: 0, to: 2, limits: 0...1) }
        t.update(1, at: 0)
        t.finish(at: 0)                                                                  // finished at once
        #expect(t.phase == .finished)
        #expect(throws: TransitionError.invalidAlongsideAnimation(reason: "badgeY: registered after the transition finished")) {
            try t.animateAlongside(Self.badge)
        }
        #expect(t.alongsideValue(named: "badgeY") == nil)
        #expect(t.alongsideValue(named: "blurAlpha") == 0.4)
    }

    /// A transition is a value: a copy carries its own alongside state, which is why alongside
    /// animations are values and not closures (a captured closure would run once per copy).
    @Test func copiesDoNotShareAlongsideState() throws {
        var original = Fixtures.transition(.zoomPresent)
        try original.animateAlongside(Self.blur)
        original.update(0.5, at: 0)
        var copy = original
        copy.update(1, at: 0.1)
        #expect(original.alongsideValue(named: "blurAlpha") == 0.2)
        #expect(copy.alongsideValue(named: "blurAlpha") == 0.4)
    }
}
