import Foundation
import Testing

@Suite struct TuneCLITests {
    @Test func tuneFindsSettingsAtLeastAsGoodAsTheDefaultsAndScoresTheSeedRule() throws {
        let dir = try CLI.temporaryDirectory()
        let written = dir.appendingPathComponent("tuned.json").path
        let r = try CLI.run(["tune", CLI.fixture("corpus"), "--json", "--budget", "12", "--write", written])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try r.json(line: 0)
        let best = try #require(report["best"] as? [String: Any])
        let defaults = try #require(report["defaults"] as? [String: Any])
        let seedRule = try #require(report["seedRule"] as? [String: Any])
        let bestAccuracy = try #require(best["accuracy"] as? Double)
        let defaultAccuracy = try #require(defaults["accuracy"] as? Double)
        let seedAccuracy = try #require(seedRule["accuracy"] as? Double)
        #expect(bestAccuracy >= defaultAccuracy)
        #expect(seedAccuracy < bestAccuracy, "the seed's fixed rule misses flicks and late reversals")
        #expect(report["predictedCorrect"] as? Int == best["correct"] as? Int, "the search shortcut agrees with a full replay")
        let confusion = try #require(report["confusion"] as? [String: Any])
        #expect(confusion["outcome"] != nil && confusion["gesture"] != nil)
        // Every preset is a baseline: the defaults' row is the default preset's, the seed rule's
        // uikit-seed's, and no preset beats the best.
        let baselines = try #require(report["baselines"] as? [[String: Any]])
        #expect(baselines.compactMap { $0["preset"] as? String }
                == ["gnome", "kwin", "hyprland", "android-back", "uikit-seed", "default", "fluid"])
        func accuracy(_ preset: String) -> Double? {
            (baselines.first { $0["preset"] as? String == preset }?["scored"] as? [String: Any])?["accuracy"] as? Double
        }
        #expect(accuracy("default") == defaultAccuracy && accuracy("uikit-seed") == seedAccuracy)
        #expect(baselines.allSatisfy { (($0["scored"] as? [String: Any])?["accuracy"] as? Double ?? 2) <= bestAccuracy })

        // The written settings replay to the same score.
        let replay = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/pinch-in-jitter-01.evemu"), "--summary", "--config", written])
        #expect(replay.status == 0, "\(replay.stderr)")
        let files = try #require(best["perFile"] as? [[String: Any]])
        let jitter = try #require(files.first { $0["file"] as? String == "touchscreen/pinch-in-jitter-01.evemu" })
        let expectedOutcome = ["finish": "finished", "cancel": "cancelled", "none": "none"][jitter["outcome"] as? String ?? ""]
        #expect(try replay.json(line: 0)["outcome"] as? String == expectedOutcome)
    }

    @Test func tuneIsDeterministic() throws {
        let a = try CLI.run(["tune", CLI.fixture("corpus"), "--json", "--budget", "6"])
        let b = try CLI.run(["tune", CLI.fixture("corpus"), "--json", "--budget", "6"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
    }

    /// `pinchlab tune Fixtures` (the folder above the corpus) finds the one corpus inside, and the
    /// human report shows both confusion matrices.
    @Test func tuneFindsTheCorpusInsideAFolder() throws {
        let r = try CLI.run(["tune", CLI.packageRoot.appendingPathComponent("Fixtures").path, "--budget", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("tuned on 47 recordings"))
        #expect(r.stdout.contains("gesture confusion") && r.stdout.contains("outcome confusion"))
        #expect(r.stdout.contains("seed rule"))
        #expect(r.stdout.contains("preset gnome") && r.stdout.contains("preset android-back"), "\(r.stdout)")
    }

    /// Two corpora side by side: tune says which to pick instead of guessing.
    @Test func tuneAsksWhichCorpusWhenThereAreSeveral() throws {
        let dir = try CLI.temporaryDirectory()
        for name in ["a", "b"] {
            let sub = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: sub.appendingPathComponent("manifest.json"))
        }
        let r = try CLI.run(["tune", dir.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("several corpora") && r.stderr.contains("a, b"))
    }

    @Test func tuneWithoutAManifestSaysWhatIsMissing() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["tune", dir.path])
        #expect(r.status == 66)
        #expect(r.stderr.contains("manifest.json"))
    }
}
