import Foundation
import GestureCore
import GestureLab
import Testing
import PinchlabTestSupport

@Suite(.blocking) struct TuneCLITests {
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

        // The file holds only what differs from the defaults, and reads back to the reported best settings.
        let writtenData = try Data(contentsOf: URL(fileURLWithPath: written))
        let writtenObject = try #require(JSONSerialization.jsonObject(with: writtenData) as? [String: Any])
        #expect(writtenObject["animationFrameRateHz"] == nil && writtenObject["zoomPresentScaleRange"] == nil,
                "\(String(decoding: writtenData, as: UTF8.self))")
        // The settings file's lines (JSON) that hold a value.
        let leaves = String(decoding: writtenData, as: UTF8.self).split(separator: "\n").filter { !$0.hasSuffix("{") && !$0.contains("}") }
        #expect(leaves.count < 20, "a few changed keys, not all ~80: \(leaves.count)")
        let reported = try JSONSerialization.data(withJSONObject: try #require(best["settings"]))
        #expect(try JSONDecoder().decode(LabSettings.self, from: writtenData) == JSONDecoder().decode(LabSettings.self, from: reported))

        // The written settings replay to the same score.
        let replay = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/pinch-in-jitter-01.evemu"), "--summary", "--config", written])
        #expect(replay.status == 0, "\(replay.stderr)")
        let files = try #require(best["perFile"] as? [[String: Any]])
        let jitter = try #require(files.first { $0["file"] as? String == "touchscreen/pinch-in-jitter-01.evemu" })
        let expectedOutcome = ["finish": "finished", "cancel": "cancelled", "none": "none"][jitter["outcome"] as? String ?? ""]
        #expect(try replay.json(line: 0)["outcome"] as? String == expectedOutcome)
    }

    /// The outcome table has a row for every file: the real recordings' labels mostly give a
    /// gesture and no outcome (`any`), and those files were left out of it. (Fixtures/real-recordings.json
    /// labels the recordings of ../shared/recordings.)
    @Test(.needs(.sharedRecordings)) func theOutcomeTableCountsEveryFile() throws {
        let r = try CLI.run(["tune", CLI.fixture("real-recordings.json"), "--folds", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let table = r.stdout.components(separatedBy: "outcome confusion (tuned; rows: label, columns: replay)\n").last ?? ""
        let rows = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix { !$0.isEmpty }
        #expect(rows.contains { $0.hasPrefix("any ") }, "\(table.prefix(400))")
        let counted = rows.map { $0.split(separator: " ").dropFirst().compactMap { Int($0) }.reduce(0, +) }.reduce(0, +)
        #expect(counted == 42, "every file in one row: \(counted)")
        // The report whole: its score rows count each file once (right, wrong gesture, or, gestures
        // right, wrong outcome), and every figure is pinned.
        try Golden.expect(r, is: "tune-shared-real-recordings", normalising: [Prerequisite.sharedRecordingsDirectory.path: "$SHARED"])
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
        // "tuned on 49 recordings", the seed rule and the presets' rows, both confusion matrices.
        try Golden.expect(r, is: "tune-fixtures-folder")
    }

    /// Two corpora side by side: tune says which to pick instead of guessing.
    @Test func tuneAsksWhichCorpusWhenThereAreSeveral() throws {
        let dir = try CLI.temporaryDirectory()
        for name in ["a", "b"] {
            let sub = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: sub.appendingPathComponent("manifest.json"))
        }
        try Golden.expect(try CLI.run(["tune", dir.path]), is: "errors-tune-several-corpora")
    }

    @Test func tuneWithoutAManifestSaysWhatIsMissing() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["tune", dir.path])
        #expect(r.status == 66)
        try Golden.expect(r, is: "errors-tune-no-manifest")
    }
}

/// Honest tuning: held-out accuracy, warnings on a small corpus, --fail-under.
@Suite(.blocking) struct TuneCrossValidationCLITests {
    /// A manifest in a temporary folder labelling corpus files where they lie (absolute paths).
    static func manifest(_ entries: [(file: String, expect: String)]) throws -> String {
        let dir = try CLI.temporaryDirectory()
        let list = entries.map { "{\"file\": \"\(CLI.fixture("corpus/" + $0.file))\", \"expect\": [\($0.expect)]}" }
        let path = dir.appendingPathComponent("manifest.json").path
        try Data("{\"entries\": [\(list.joined(separator: ", "))]}".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aLargeEnoughCorpusIsCrossValidatedByDefault() throws {
        let r = try CLI.run(["tune", CLI.fixture("corpus"), "--json", "--budget", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try r.json(line: 0)
        let cv = try #require(report["crossValidation"] as? [String: Any])
        #expect(cv["method"] as? String == "k-fold" && cv["folds"] as? Int == 5)
        let folds = try #require(cv["perFold"] as? [[String: Any]])
        #expect(folds.count == 5)
        #expect(folds.compactMap { $0["heldOutFiles"] as? Int }.reduce(0, +) == 49, "every file held out once")
        #expect(folds.allSatisfy { ($0["trainingFiles"] as? Int ?? 0) + ($0["heldOutFiles"] as? Int ?? 0) == 49 })
        let accuracy = try #require(cv["heldOutAccuracy"] as? Double)
        #expect(accuracy > 0.9 && accuracy <= 1)
        #expect((report["warnings"] as? [Any])?.isEmpty == true)
    }

    @Test func leaveOneDeviceOut() throws {
        let r = try CLI.run(["tune", CLI.fixture("corpus"), "--by-device", "--budget", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        // Each fold trains on one device: no folds nest in it, so no setting can be shown to help.
        #expect(r.stdout.components(separatedBy: "moved nothing").count == 3, "\(r.stdout)")
        // "held out (leave-one-device-out, 2 folds", each device named, the defaults kept.
        try Golden.expect(r, is: "tune-by-device")
        let oneDevice = try Self.manifest([("touchpad/pinch-out-01.evemu", "{\"kind\": \"pinch\"}")])
        let refused = try CLI.run(["tune", oneDevice, "--by-device", "--budget", "2"])
        #expect(refused.status == 64, "\(refused.stderr)")
        try Golden.expect(refused, is: "errors-tune-by-device-one-device")
    }

    /// Two files: tuned, with a warning saying what "too small" is and why, and no held-out figure.
    @Test func aTinyCorpusIsWarnedAbout() throws {
        let path = try Self.manifest([("touchpad/pinch-out-01.evemu", "{\"kind\": \"pinch\", \"fingers\": 2}"),
                                      ("touchpad/two-finger-tap-01.evemu", "{\"kind\": \"none\"}")])
        let r = try CLI.run(["tune", path, "--budget", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        // The warnings whole: too few recordings (fewer than 20), only 2 touchpad ones, no cross-validation.
        try Golden.expect(r, is: "tune-tiny-corpus-warnings")
        let json = try CLI.run(["tune", path, "--budget", "2", "--json"])
        let report = try json.json(line: 0)
        #expect(report["crossValidation"] == nil)
        let kinds = (report["warnings"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["corpusTooSmall", "classTooSmall", "noHeldOutEstimate"])
    }

    /// A mislabelled file: the defaults and the best both get it wrong, both lists say so, and
    /// --fail-under decides the status.
    @Test func wrongFilesAndFailUnder() throws {
        let path = try Self.manifest([("touchpad/pinch-out-01.evemu", "{\"kind\": \"pinch\", \"fingers\": 2}"),
                                      ("touchpad/two-finger-scroll-01.evemu", "{\"kind\": \"pinch\", \"fingers\": 2}")])
        var r = try CLI.run(["tune", path, "--budget", "2", "--fail-under", "0.9"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        // Two files hold out nothing: the defaults are kept, and their wrong files listed once (no
        // "files the tuned settings get wrong:"); stderr says the accuracy is below --fail-under 90.0%.
        try Golden.expect(r, is: "tune-fail-under")
        r = try CLI.run(["tune", path, "--budget", "2", "--fail-under", "0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["tune", path, "--fail-under", "95"])
        #expect(r.status == 64)
        r = try CLI.run(["tune", path, "--folds", "1"])
        #expect(r.status == 64)
    }
}

/// The tuner's advice on corpora where the right answer is known: a threshold planted to matter
/// moves alone, and a corpus the defaults already get right changes nothing.
@Suite(.blocking) struct TuneGeneralizesCLITests {
    /// A touchscreen corpus where one threshold matters: the shipped touchscreen files (right with
    /// the defaults), eight sloppy one-sided pinches (one finger still, the other heading 32-36
    /// degrees off the line to it, labelled pinches: the default 30-degree limit makes them pans, a
    /// 40-degree one pinches) and eight moves heading 55-65 degrees off (labelled pans, right with
    /// either limit).
    static func plantedCorpus() throws -> String {
        var entries = StandardCorpus.entries().filter { $0.device == .touchscreen }
        var random = SeededRandom(seed: 22)
        for (family, angles, expect) in [("sloppy-one-sided-pinch", 32.0...36.0,
                                          GestureExpectation(kind: .pinch, fingers: 2, direction: .in)),
                                         ("one-finger-past-a-still-one", 55.0...65.0, GestureExpectation(kind: .pan, fingers: 2))] {
            for n in 1...8 {
                // The still finger lands first; the other 40 mm away, 20-40 degrees off horizontal
                // (so never side by side), then heads at the still one turned by the family's angle.
                let sign = n % 2 == 0 ? 1.0 : -1.0, turn = n % 4 < 2 ? 1.0 : -1.0
                let base = random.uniform(20...40) * sign * Double.pi / 180
                let heading: Double = base + Double.pi + random.uniform(angles) * turn * Double.pi / 180
                let travel = random.uniform(11...14), duration = random.uniform(0.35...0.5)
                let recipe = """
                    {"motion": {"restingThumb": {"_0": {"thumb": {"x": 145, "y": 85},
                        "fingerStart": {"x": \(145 + 40 * cos(base)), "y": \(85 + 40 * sin(base))},
                        "dx": {"keyframes": [{"time": 0, "value": 0}, {"time": \(duration), "value": \(travel * cos(heading))}]},
                        "dy": {"keyframes": [{"time": 0, "value": 0}, {"time": \(duration), "value": \(travel * sin(heading))}]}}}},
                     "landingStaggerS": \(random.uniform(0.03...0.06)), "settleS": \(random.uniform(0.03...0.06)),
                     "releaseAtS": \(duration + 0.05), "liftStaggerS": \(random.uniform(0.01...0.03))}
                    """
                entries.append(CorpusEntry(file: "touchscreen/\(family)-0\(n).evemu", transition: "pinch-dismiss", expect: [expect],
                                           gesture: family, device: .touchscreen, seed: random.next(),
                                           recipe: try JSONDecoder().decode(GestureRecipe.self, from: Data(recipe.utf8))))
            }
        }
        let directory = try CLI.temporaryDirectory().path
        try CorpusFiles.write(entries: entries, to: directory)
        return directory
    }

    /// The planted threshold moves, alone, with its cross-validated gain and the files it fixes;
    /// the written file holds that one key, and with it the files replay as the pinches they are.
    @Test func theOneThresholdThatMattersMovesAndNoOther() throws {
        let corpus = try Self.plantedCorpus()
        let written = try CLI.temporaryDirectory().appendingPathComponent("t.json").path
        let r = try CLI.run(["tune", corpus, "--json", "--write", written])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try r.json(line: 0)
        #expect(report["beatsDefaults"] as? Bool == true)
        let changes = try #require(report["changes"] as? [[String: Any]])
        try #require(changes.count == 1, "\(changes)")
        let change = changes[0]
        #expect(change["key"] as? String == "touchscreenRecognizer.oneSidedPinchMaximumAngleDegrees")
        #expect(change["default"] as? Double == 30 && change["value"] as? Double == 40)
        let sloppy = (1...8).map { "touchscreen/sloppy-one-sided-pinch-0\($0).evemu" }
        #expect(change["fixes"] as? [String] == sloppy && (change["breaks"] as? [String])?.isEmpty == true)
        #expect(change["heldOutCorrectBefore"] as? Int == 31 && change["heldOutCorrectAfter"] as? Int == 39)
        let cv = try #require(report["crossValidation"] as? [String: Any])
        #expect(try #require(cv["heldOutCorrect"] as? Int) > (try #require(cv["defaultsHeldOutCorrect"] as? Int)))
        let folds = try #require(cv["perFold"] as? [[String: Any]])
        #expect(folds.allSatisfy { ($0["moved"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
                == ["touchscreenRecognizer.oneSidedPinchMaximumAngleDegrees"] }, "every fold's own search moved that one")
        #expect((report["best"] as? [String: Any])?["correct"] as? Int == 39)
        #expect((report["defaults"] as? [String: Any])?["correct"] as? Int == 31)

        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: written))) as? [String: Any]
        #expect(file?.keys.sorted() == ["touchscreenRecognizer"])
        #expect((file?["touchscreenRecognizer"] as? [String: Any])?.keys.sorted() == ["oneSidedPinchMaximumAngleDegrees"])
        let recording = corpus + "/touchscreen/sloppy-one-sided-pinch-01.evemu"
        let before = try CLI.run(["replay", recording, "--summary"])
        let after = try CLI.run(["replay", recording, "--summary", "--config", written])
        func kinds(_ run: CLI.Result) throws -> [String] {
            (try run.json(line: 0)["gestures"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        }
        #expect(try kinds(before) == ["pan"] && kinds(after) == ["pinch"], "\(before.stdout)\(after.stdout)")

        // The human report whole: the one changed setting, its held-out gain and the files it fixes.
        try Golden.expect(try CLI.run(["tune", corpus]), is: "tune-planted-threshold")
    }

    /// A corpus the defaults get right: the report says so, and --write saves a settings file with
    /// no changed setting, which --config reads.
    @Test func withNoGainHeldOutNothingIsWritten() throws {
        let written = try CLI.temporaryDirectory().appendingPathComponent("t.json").path
        let r = try CLI.run(["tune", CLI.fixture("corpus"), "--write", written])
        #expect(r.status == 0, "\(r.stderr)")
        // "the defaults are as good as anything found; no setting changed", then the file written.
        try Golden.expect(r, is: "tune-corpus-write-no-change")
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: written))) as? [String: Any]
        #expect(file?.isEmpty == true)
        let replay = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--summary", "--config", written])
        #expect(replay.status == 0, "\(replay.stderr)")
        let json = try CLI.run(["tune", CLI.fixture("corpus"), "--json"])
        let report = try json.json(line: 0)
        #expect(report["beatsDefaults"] as? Bool == false && (report["changes"] as? [Any])?.isEmpty == true)
    }
}
