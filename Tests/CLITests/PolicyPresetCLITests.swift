import Foundation
import Testing

/// `--policy` with the desktops' presets, and their figures in settings files, from the command line.
@Suite struct PolicyPresetCLITests {
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
        #expect(bad.stderr.contains("'cancelRatio' is not a setting of a kwin policy"), "\(bad.stderr)")
    }

    @Test func thresholdOnlyAppliesToPinchlabsOwnRule() throws {
        let r = try CLI.run(["replay", Self.flick, "--policy", "gnome", "--threshold", "0.3"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("gnome policy has its own figures"), "\(r.stderr)")
        let unknown = try CLI.run(["replay", Self.flick, "--policy", "macos"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("android-back"))
    }
}
