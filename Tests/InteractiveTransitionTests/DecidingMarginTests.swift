import Testing
import SettingsTable
@testable import InteractiveTransition

/// A release's deciding margin (`CompletionDecision.margin(input:)`) is a tipping point: the
/// setting it names, moved just past the value it measured, turns the decision (asked of `decide`
/// again with that setting), and where moving it cannot (a flick the projection decides the same
/// way, GNOME's snap to the page its projection reaches, a Hyprland switch made by both its ratio
/// and its speed) there is none: no value of the setting turns it.
@Suite struct DecidingMarginTests {
    /// `policy` with its setting `key` (as a margin names it, `policy.touchpad.velocityThreshold`)
    /// at `value`, through the settings table as a settings file sets it.
    static func policy(_ policy: CompletionPolicy, setting key: String, to value: Double) throws -> CompletionPolicy {
        let path = key.split(separator: ".").dropFirst().map(String.init)
        var json = JSONValue.number(value)
        for name in path.reversed() { json = .object([name: json]) }
        return try CompletionPolicy(settings: json, over: policy)
    }

    /// Settings either side of `margin.value`, just past it, away from where the threshold is now
    /// (both sides when the value is the threshold).
    static func justPast(_ margin: DecisionMargin) -> [Double] {
        let epsilon = 1e-9 * max(1, abs(margin.value))
        if margin.threshold < margin.value { return [margin.value + epsilon] }
        if margin.threshold > margin.value { return [margin.value - epsilon] }
        return [margin.value - epsilon, margin.value + epsilon]
    }

    /// A release followed by `policy`'s tracker along `path` (time s, progress), released at its end.
    struct Path: Sendable, CustomStringConvertible {
        let name: String
        let steps: [(Double, Double)]
        var input: CompletionInput = .touchpad
        var description: String { name }

        func decide(_ policy: CompletionPolicy) -> CompletionDecision {
            var tracker = policy.tracker(input: input, initialProgress: 0, at: 0)
            for (time, progress) in steps { tracker.observe(progress: progress, at: time) }
            let (time, progress) = steps.last!
            return tracker.decide(progress: progress, velocity: 0, at: time)
        }
    }

    /// Checks `decision`'s margin under `policy`: its setting just past the value turns `decide`;
    /// with no margin, none of `sweep` (values of `nilKeys`' settings) does.
    static func expectTrueMargin(_ policy: CompletionPolicy, input: CompletionInput, nilKeys: [String], sweep: [Double],
                                 _ decide: (CompletionPolicy) -> CompletionDecision, _ comment: Comment) throws {
        let decision = decide(policy)
        if let margin = decision.margin(input: input) {
            // The key names a setting: the threshold it compared with is accepted (a wrong key would
            // make every try below fail and the check pass unseen).
            _ = try Self.policy(policy, setting: margin.key, to: margin.threshold)
            // A value at the end of the setting's range (a release at 0 %) has no value past it to try.
            let moved = justPast(margin).compactMap { try? Self.policy(policy, setting: margin.key, to: $0) }
            guard !moved.isEmpty else { return }
            #expect(moved.contains { decide($0).shouldFinish != decision.shouldFinish },
                    "\(comment): \(margin.key) just past \(margin.value) does not turn \(decision)")
        } else {
            for key in nilKeys {
                var tried = 0
                for value in sweep {
                    guard let moved = try? Self.policy(policy, setting: key, to: value) else { continue }
                    tried += 1
                    #expect(decide(moved).shouldFinish == decision.shouldFinish,
                            "\(comment): no margin, yet \(key) \(value) turns \(decision)")
                }
                #expect(tried > 0, "\(comment): \(key) names no setting, or the sweep is outside its range")
            }
        }
    }

    // MARK: - pinchlab's rule

    @Test(arguments: ReleaseFlipTests.releases) func pinchlabsMarginTurnsTheRelease(_ r: ReleaseFlipTests.Release) throws {
        let decision = r.policy.decide(progress: r.progress, velocity: r.velocity)
        let flicks = stride(from: 0.05, through: 10, by: 0.05).map { $0 } + [20, 100, 1000]
        try Self.expectTrueMargin(r.policy, input: .touchpad, nilKeys: ["policy.flickVelocity"], sweep: flicks,
                                  { $0.decide(progress: r.progress, velocity: r.velocity) }, "\(r)")
        if case .flick = decision.reason, decision.margin(input: .touchpad) == nil {
            #expect(r.policy.flip(progress: r.progress, velocity: r.velocity).margin == nil, "the flip's margin is the decision's")
        }
    }

    /// The corpus's touchpad pinch-in-quick-flick-01: 2.948/s from 20 % under the default policy.
    /// Its projection (0.2 + 0.499 x 2.948) finishes too, so no flick velocity cancels it; at
    /// 0.6/s its projection is what decides, and there the threshold and the velocity turn it.
    @Test func aFlickTheProjectionAgreesWithHasNoMargin() throws {
        let decision = CompletionPolicy.default.decide(progress: 0.2, velocity: 2.948)
        #expect(decision.shouldFinish && decision.margin(input: .touchpad) == nil)
        for flick in [1.5, 2.9, 2.949, 3, 10, 1000] {
            let policy = try Self.policy(.default, setting: "policy.flickVelocity", to: flick)
            #expect(policy.decide(progress: 0.2, velocity: 2.948).shouldFinish, "flickVelocity \(flick)")
        }
        // The same flick from 5 % the projection cancels (0.05 + 0.499 x 0.8 < 0.5): its edge is real.
        let flickOnly = try CompletionPolicy(progressThreshold: 0.5, decelerationRatePerMS: 0.998, flickVelocity: 0.75)
        let real = try #require(flickOnly.decide(progress: 0.05, velocity: 0.8).margin(input: .touchpad))
        #expect(real.key == "policy.flickVelocity" && real.value == 0.8 && real.threshold == 0.75)
        #expect(!(try Self.policy(flickOnly, setting: real.key, to: 0.81)).decide(progress: 0.05, velocity: 0.8).shouldFinish)
    }

    // MARK: - GNOME

    static let gnomePaths: [Path] = [
        // Slow to 0.4: snaps back, its projection would have gone on a page: the threshold turns it.
        Path(name: "slow to 0.4", steps: DesktopPolicyTests.drag(to: 0.4, over: 1)),
        // Slow to 0.7: snaps forwards, and so does the projection: no threshold turns it.
        Path(name: "slow to 0.7", steps: DesktopPolicyTests.drag(to: 0.7, over: 1.5)),
        // Fast to 0.3: projects a page on; snapping would go back: the threshold turns it.
        Path(name: "fast to 0.3", steps: DesktopPolicyTests.drag(to: 0.3, over: 0.1)),
        // Fast to 0.8: projects on, and snapping finishes too: none.
        Path(name: "fast to 0.8", steps: DesktopPolicyTests.drag(to: 0.8, over: 0.2)),
        // Back from 0.9 to 0.6 quickly: projects back to 0; snapping finishes.
        Path(name: "back to 0.6", steps: DesktopPolicyTests.drag(to: 0.9, over: 1) + DesktopPolicyTests.drag(to: 0.6, over: 0.1, from: 0.9, start: 1)),
        Path(name: "touchscreen slow to 0.2", steps: DesktopPolicyTests.drag(to: 0.2, over: 1), input: .touchscreen),
        Path(name: "touchscreen fast to 0.9", steps: DesktopPolicyTests.drag(to: 0.9, over: 0.3), input: .touchscreen),
    ]

    @Test(arguments: gnomePaths) func gnomesMarginTurnsTheRelease(_ path: Path) throws {
        let policy = CompletionPolicyPreset.gnome.policy
        let key = "policy.\(path.input.rawValue).velocityThreshold"
        try Self.expectTrueMargin(policy, input: path.input, nilKeys: [key], sweep: stride(from: 0, through: 100, by: 0.01).map { $0 },
                                  path.decide, "\(path)")
        #expect(path.decide(policy).margin(input: path.input)?.key ?? key == key)
    }

    @Test func gnomesMarginIsNilOnlyWhereBothWaysAgree() {
        let policy = CompletionPolicyPreset.gnome.policy
        let byName = Dictionary(uniqueKeysWithValues: Self.gnomePaths.map { ($0.name, $0.decide(policy).margin(input: $0.input)) })
        #expect(byName["slow to 0.4"]! != nil && byName["fast to 0.3"]! != nil && byName["back to 0.6"]! != nil)
        #expect(byName["slow to 0.7"]! == nil && byName["fast to 0.8"]! == nil)
    }

    // MARK: - Hyprland

    static let hyprlandPaths: [Path] = [
        Path(name: "slow to 0.4, short of the ratio", steps: DesktopPolicyTests.drag(to: 0.4, over: 1)),
        Path(name: "slow to 0.7, past the ratio", steps: DesktopPolicyTests.drag(to: 0.7, over: 1)),
        Path(name: "fast to 0.3, forced by speed", steps: [(0.01, 0.15), (0.02, 0.3)]),
        Path(name: "fast to 0.8, past the ratio and forced", steps: [(0.01, 0.4), (0.02, 0.8)]),
        Path(name: "under 2 units", steps: [(0.01, 0.006)]),
    ]

    @Test(arguments: hyprlandPaths) func hyprlandsMarginTurnsTheRelease(_ path: Path) throws {
        let policy = CompletionPolicyPreset.hyprland.policy
        try Self.expectTrueMargin(policy, input: .touchpad, nilKeys: ["policy.cancelRatio"],
                                  sweep: stride(from: 0, through: 1, by: 0.005).map { $0 }, path.decide, "\(path)")
        try Self.expectTrueMargin(policy, input: .touchpad, nilKeys: ["policy.minSpeedToForce"],
                                  sweep: stride(from: 0, through: 400, by: 0.5).map { $0 } + [1000, 100_000], path.decide, "\(path)")
    }

    @Test func aSwitchBothTheRatioAndTheSpeedMadeHasNoMargin() {
        let policy = CompletionPolicyPreset.hyprland.policy
        let both = Self.hyprlandPaths[3].decide(policy)
        #expect(both.shouldFinish && both.margin(input: .touchpad) == nil, "\(both)")
        #expect(Self.hyprlandPaths[2].decide(policy).margin(input: .touchpad)?.key == "policy.minSpeedToForce")
        #expect(Self.hyprlandPaths[1].decide(policy).margin(input: .touchpad)?.key == "policy.cancelRatio")
    }
}
