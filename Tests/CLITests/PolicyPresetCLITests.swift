import Foundation
import PinchlabTestSupport
import Testing

/// `--policy` with the desktops' presets, and their figures in settings files, from the command line.
@Suite(.blocking) struct PolicyPresetCLITests {
    static let flick = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")

    /// The quick flick (released at progress 0.2, fast): GNOME's velocity rule and Android's
    /// commitment finish it; KWin's and the seeds' 0.5 and Hyprland's 150-unit travel cancel it.
    @Test(arguments: [("gnome", "finished", "GNOME"), ("kwin", "cancelled", "KWin"), ("hyprland", "cancelled", "Hyprland"),
                      ("android-back", "finished", "Android back"), ("uikit-seed", "cancelled", "progress"),
                      ("seed", "cancelled", "progress")])
    func eachPresetDecidesByItsRule(_ preset: String, _ outcome: String, _ named: String) throws {
        let r = try CLI.run(["replay", Self.flick, "--policy", preset, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try r.json(line: -1)
        #expect(summary["outcome"] as? String == outcome)
        #expect((summary["reason"] as? String)?.contains(named) == true, "\(summary["reason"] ?? "")")
    }

    @Test func aSettingsFileCarriesAPresetsFigures() throws {
        let dir = try CLI.temporaryDirectory()
        let lenient = dir.appendingPathComponent("hypr.json").path
        // A cancel ratio of 0.1 (30 units): the flick's 60 units of travel now switch.
        try Data(#"{"policy": {"kind": "hyprland", "cancelRatio": 0.1}}"#.utf8).write(to: URL(fileURLWithPath: lenient))
        let r = try CLI.run(["replay", Self.flick, "--config", lenient, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try r.json(line: -1)["outcome"] as? String == "finished")
        let policy = try r.json(line: -1)["policy"] as? [String: Any]
        #expect(policy?["kind"] as? String == "hyprland" && policy?["cancelRatio"] as? Double == 0.1)

        let wrong = dir.appendingPathComponent("wrong.json").path
        try Data(#"{"policy": {"kind": "kwin", "cancelRatio": 0.1}}"#.utf8).write(to: URL(fileURLWithPath: wrong))
        let bad = try CLI.run(["replay", Self.flick, "--config", wrong])
        #expect(bad.status == 65)
        try Golden.expect(bad, is: "errors-config-cancel-ratio-of-a-kwin-policy")
    }

    @Test func thresholdOnlyAppliesToPinchlabsOwnRule() throws {
        // Both usage errors whole (64): the gnome policy has its own figures; an unknown policy
        // lists the presets (android-back among them).
        var transcript = ""
        #expect(try Golden.run(["replay", Self.flick, "--policy", "gnome", "--threshold", "0.3"], into: &transcript).status == 64)
        #expect(try Golden.run(["replay", Self.flick, "--policy", "macos"], into: &transcript).status == 64)
        try Golden.expect(transcript, is: "errors-policy-threshold-and-unknown")
    }
}

/// `replay --compare`: every attempt under each preset, side by side.
@Suite(.blocking) struct PolicyCompareCLITests {
    @Test func compareAddsOneRowPerAttemptAndPolicy() throws {
        let r = try CLI.run(["replay", PolicyPresetCLITests.flick, "--compare", "gnome,kwin,uikit-seed", "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try r.json(line: -1)
        let rows = try #require(summary["comparisons"] as? [[String: Any]])
        let trials = try #require(summary["trialCount"] as? Int)
        #expect(rows.count == 3 * trials)
        let first = Dictionary(uniqueKeysWithValues: rows.filter { $0["trial"] as? Int == 0 }
            .map { ($0["policy"] as? String ?? "", $0["outcome"] as? String ?? "") })
        #expect(first == ["gnome": "finished", "kwin": "cancelled", "uikit-seed": "cancelled"])
        // Each row is what a replay under that policy alone says.
        for (policy, outcome) in first {
            let alone = try CLI.run(["replay", PolicyPresetCLITests.flick, "--policy", policy, "--summary"])
            #expect(try alone.json(line: -1)["outcome"] as? String == outcome, "\(policy)")
        }
        let decision = try #require(rows.first?["decision"] as? [String: Any])
        #expect(decision["progress"] != nil && decision["velocity"] != nil && decision["finish"] != nil)
    }

    @Test func theHumanOutputHasATable() throws {
        let r = try CLI.run(["replay", PolicyPresetCLITests.flick, "--compare", "android-back,hyprland"])
        #expect(r.status == 0, "\(r.stderr)")
        // The table whole: "default (used)  1  finished", android-back finished, hyprland cancelled.
        try Golden.expect(r, is: "replay-compare-android-back-hyprland-quick-flick")
    }

    /// replay and plot read --compare alike: a name that is no preset (or an empty one) is named.
    @Test(arguments: [("replay", "gnome,macos", "macos"), ("plot", "macos", "macos"), ("replay", "gnome,", "")])
    func anUnknownPresetIsAUsageErrorNamingIt(_ command: String, _ list: String, _ unknown: String) throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("compare.svg").path
        let bad = try CLI.run([command, PolicyPresetCLITests.flick, "--compare", list] + (command == "plot" ? ["-o", out] : []))
        #expect(bad.status == 64)
        // Both take a gesture tool's name there too (plot draws a lane for it): "unknown policy or
        // tool 'NAME' in --compare; choose from gnome, kwin, ...", whole.
        try Golden.expect(bad, is: "errors-compare-unknown-\(command)-\(unknown.isEmpty ? "empty" : unknown)")
    }
}

/// `plot --compare`: other presets' progress drawn dashed over the policy used.
@Suite(.blocking) struct PlotCompareCLITests {
    @Test func plotDrawsEachComparedPolicy() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("compare.svg").path
        let r = try CLI.run(["plot", PolicyPresetCLITests.flick, "--compare", "gnome,kwin", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains(">gnome<") && svg.contains(">kwin<"), "each compared policy is in the legend")  // SVG fragments
        // KWin cancels the flick: its dashed curve ends with a cancelled mark; the policy used finishes.
        #expect(svg.components(separatedBy: "stroke-dasharray").count > 2)
        let tooMany = try CLI.run(["plot", PolicyPresetCLITests.flick, "--compare", "gnome,kwin,hyprland,fluid", "-o", out])
        #expect(tooMany.status == 64)
        try Golden.expect(tooMany, is: "errors-plot-compare-too-many")
    }
}
