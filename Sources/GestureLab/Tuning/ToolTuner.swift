import Foundation
import GestureTools

/// One threshold of a gesture tool that `ToolTuner` may move, in the tool's own name and units.
package struct ToolSetting: Sendable {
    /// As the tool's file or command line names it: `-t`, `action_execute_threshold`, `swipe_threshold`.
    package var key: String
    /// The values searched, in the order a tie prefers (the tool's default first).
    package var values: [Double?]
    let get: @Sendable (GestureToolSettings) -> Double?
    let set: @Sendable (GestureToolSettings, Double?) -> GestureToolSettings

    /// The thresholds `tune --for` searches for each tool (none for the others).
    package static func searched(_ tool: GestureToolName) -> [ToolSetting] {
        switch tool {
        case .lisgd:
            return [
                lisgd("-t", [125, 25, 50, 75, 100, 150, 200, 250, 300, 400, 500], \.threshold),
                lisgd("-r", [15, 5, 10, 20, 25, 30, 35, 40, 45], \.degreesLeniency),
                lisgd("-m", [800, 300, 400, 500, 600, 700, 900, 1000, 1200, 1500, 2000, 3000, 5000], \.timeoutMS),
            ]
        case .touchegg:
            return [
                ToolSetting(key: "action_execute_threshold", values: [20, 5, 10, 15, 25, 30, 40, 50, 60, 70, 80],
                            get: { if case .touchegg(let s) = $0 { Double(s.actionExecuteThreshold) } else { nil } },
                            set: { if case .touchegg(var s) = $0, let v = $1 { s.actionExecuteThreshold = Int(v); return .touchegg(s) }; return $0 }),
                // nil: computed from the device's size, as the daemon does without arguments.
                touchegg("daemon start threshold", [nil, 5, 10, 20, 30, 50, 75, 100, 150, 200], \.daemonStartThreshold),
                touchegg("daemon finish threshold", [nil, 20, 50, 100, 150, 200, 300, 400, 600, 800, 1200, 2500], \.daemonFinishThreshold),
            ]
        case .libinputGestures:
            return [
                ToolSetting(key: "swipe_threshold", values: [0, 10, 20, 50, 75, 100, 150, 200, 300, 400, 600],
                            get: { if case .libinputGestures(let s) = $0 { Double(s.swipeThreshold) } else { nil } },
                            set: { if case .libinputGestures(var s) = $0, let v = $1 { s.swipeThreshold = Int(v); return .libinputGestures(s) }; return $0 }),
                ToolSetting(key: "timeout", values: [1.5, 0, 0.5, 0.75, 1, 2, 3, 5],
                            get: { if case .libinputGestures(let s) = $0 { s.timeoutSeconds } else { nil } },
                            set: { if case .libinputGestures(var s) = $0, let v = $1 { s.timeoutSeconds = v; return .libinputGestures(s) }; return $0 }),
            ]
        case .fusuma:
            // Multipliers of the detectors' base figures (`threshold: swipe:` ...; 1 where the file is silent).
            return [
                fusuma(.swipe, [0.3, 0.1, 0.2, 0.5, 0.75, 1, 1.5, 2, 3]),
                fusuma(.pinch, [0.1, 0.05, 0.2, 0.3, 0.5, 0.75, 1, 1.5]),
                fusuma(.hold, [1, 0.25, 0.5, 0.75, 1.5, 2, 3]),
            ]
        case .inputactions:
            // Device properties (`device_rules:`), in libinput's unaccelerated units and degrees: the
            // window a direction is judged on, and how far from a straight direction it may lean.
            return [
                inputActions("motion_threshold_3", [10, 2, 5, 7.5, 15, 20, 30, 50, 75, 100, 150, 200]),
                inputActions("motion_threshold_2", [10, 2, 5, 7.5, 15, 20, 30, 50, 75, 100]),
                inputActions("swipe.angle_tolerance", [20, 5, 10, 15, 25, 30, 35, 40, 45]),
            ]
        default:
            return []
        }
    }

    private static func inputActions(_ key: String, _ values: [Double]) -> ToolSetting {
        ToolSetting(key: key, values: values,
                    get: { if case .inputactions(let s) = $0 { s[deviceProperty: key] } else { nil } },
                    set: { if case .inputactions(var s) = $0, let v = $1 { s[deviceProperty: key] = v; return .inputactions(s) }; return $0 })
    }

    private static func fusuma(_ gesture: FusumaSettings.Gesture, _ values: [Double]) -> ToolSetting {
        ToolSetting(key: "threshold.\(gesture.rawValue)", values: values,
                    get: { if case .fusuma(let s) = $0 { s.threshold[gesture] ?? 1 } else { nil } },
                    set: { if case .fusuma(var s) = $0, let v = $1 { s.threshold[gesture] = v; return .fusuma(s) }; return $0 })
    }

    private static func lisgd(_ key: String, _ values: [Double], _ path: WritableKeyPath<LisgdSettings, Int> & Sendable) -> ToolSetting {
        ToolSetting(key: key, values: values,
                    get: { if case .lisgd(let s) = $0 { Double(s[keyPath: path]) } else { nil } },
                    set: { if case .lisgd(var s) = $0, let v = $1 { s[keyPath: path] = Int(v); return .lisgd(s) }; return $0 })
    }

    private static func touchegg(_ key: String, _ values: [Double?], _ path: WritableKeyPath<ToucheggSettings, Double?> & Sendable) -> ToolSetting {
        ToolSetting(key: key, values: values,
                    get: { if case .touchegg(let s) = $0 { s[keyPath: path] } else { nil } },
                    set: { if case .touchegg(var s) = $0 { s[keyPath: path] = $1; return .touchegg(s) }; return $0 })
    }

    /// The candidates from `current`: the current value first (ties keep it), then the others
    /// nearest it first.
    func candidates(from current: Double?) -> [Double?] {
        let others = values.filter { $0 != current }.sorted { a, b in
            switch (a, b, current) {
            case (nil, _, _): return true
            case (_, nil, _): return false
            case (let a?, let b?, let c?): return (abs(a - c), a) < (abs(b - c), b)
            case (let a?, let b?, nil): return a < b
            }
        }
        return [current] + others
    }
}

/// Tunes a gesture tool's own thresholds on a labelled corpus. Each file is replayed once by
/// pinchlab's recognizer (at its defaults, standing in for libinput) into the stream the tool reads
/// (`ToolStreamBuilder`); every candidate setting is then only a judging of those streams, which is
/// cheap. The search is the pinchlab tuner's: a coordinate descent from the user's configuration
/// (or the tool's defaults) over the settings a cross-validated forward selection lets move (a
/// setting is freed only when that gets more held-out files right), the whole cross-validated once
/// more, with the same folds (`CrossValidation`). Ties keep the current value; the tuned values are
/// written only when they beat the current ones on held-out files.
package struct ToolTuner: Sendable {
    /// A corpus file the tool reads, its stream made once.
    package struct File: Sendable {
        package var recording: LoadedRecording
        package var stream: ToolStream
        /// Whether pinchlab's own default settings decide it right (`check`'s verdict).
        var pinchlabCorrect: Bool
    }

    package let files: [File]
    /// Files of a device kind the tool does not read.
    package let skipped: Int
    package let start: GestureToolSettings
    let settings: [ToolSetting]
    /// The files as `CrossValidation` folds them.
    private let recordings: [LoadedRecording]

    /// Replays every file once (in parallel): its stream for the tool, and pinchlab's own verdict at the defaults.
    package static func prepare(_ corpus: [LoadedRecording], units: LibinputUnits) throws -> [File] {
        try parallelMap(corpus) { file in
            var events = EventList(device: file.device, events: file.events)
            let (stream, score) = try ToolStreamBuilder.replay(&events, entry: file.entry, settings: .default, units: units)
            return File(recording: file, stream: stream, pinchlabCorrect: score.correct)
        }
    }

    package init(files: [File], start: GestureToolSettings) {
        self.files = files.filter { start.name.reads($0.stream.device.kind) }
        skipped = files.count - self.files.count
        self.start = start
        settings = ToolSetting.searched(start.name)
        recordings = self.files.map(\.recording)
    }

    /// Whether `tool` gets file `index` right. Every file is judged at once (on all cores) the first
    /// time a setting is asked about, and remembered: the nested searches ask about the same
    /// settings many times.
    func correct(_ tool: GestureToolSettings, _ index: Int) -> Bool {
        if let known = memo.verdicts(of: tool) { return known[index] }
        let files = self.files
        let verdicts = parallelMap(Array(files.indices)) { i in
            ToolCorpusCheck.score(files[i].recording.entry, verdict: tool.judge(files[i].stream), device: files[i].stream.device.kind).status == .match
        }
        memo.store(verdicts, for: tool)
        return verdicts[index]
    }

    /// Settings judged so far, with every file's verdict.
    final class Memo: @unchecked Sendable {
        private var known: [GestureToolSettings: [Bool]] = [:]
        private let lock = NSLock()
        func verdicts(of tool: GestureToolSettings) -> [Bool]? { lock.lock(); defer { lock.unlock() }; return known[tool] }
        func store(_ verdicts: [Bool], for tool: GestureToolSettings) { lock.lock(); known[tool] = verdicts; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return known.count }
    }
    private let memo = Memo()
    /// How many settings were judged on every file.
    var settingsJudged: Int { memo.count }

    func wrong(_ tool: GestureToolSettings, _ indices: [Int]) -> Int { indices.filter { !correct(tool, $0) }.count }

    /// Coordinate descent from `start` on `indices`, moving only `free`: each round takes the
    /// one-setting move that gets the fewest files wrong, only when it gets fewer wrong than now;
    /// among equals the candidates' order (the current value, then those nearest it).
    func descend(_ free: [Int], on indices: [Int]) -> GestureToolSettings {
        var current = start
        guard !free.isEmpty, !indices.isEmpty else { return current }
        var currentWrong = wrong(current, indices)
        while currentWrong > 0 {
            var best: (tool: GestureToolSettings, wrong: Int)?
            for s in free {
                let setting = settings[s]
                for value in setting.candidates(from: setting.get(start)) where value != setting.get(current) {
                    let moved = setting.set(current, value)
                    let w = wrong(moved, indices)
                    if best == nil || w < best!.wrong { best = (moved, w) }
                }
            }
            guard let best, best.wrong < currentWrong else { break }
            (current, currentWrong) = (best.tool, best.wrong)
        }
        return current
    }

    /// Each fold's held-out files scored with what `descend` found on its training files.
    func crossValidate(_ free: [Int], folds: [Fold]) -> [Int: Bool] {
        var verdicts: [Int: Bool] = [:]
        for fold in folds {
            let tool = descend(free, on: fold.training)
            for index in fold.heldOut { verdicts[index] = correct(tool, index) }
        }
        return verdicts
    }

    struct Step {
        var setting: Int
        var before: [Int: Bool]
        var after: [Int: Bool]
    }

    /// Forward selection: frees, one at a time, the setting whose freedom gets the most held-out
    /// files right, only when that is more than before (ties: the settings' order).
    func select(folds: [Fold]) -> (free: [Int], steps: [Step]) {
        guard !folds.isEmpty else { return ([], []) }
        var free: [Int] = [], steps: [Step] = []
        var current = crossValidate([], folds: folds)
        func count(_ v: [Int: Bool]) -> Int { v.values.filter { $0 }.count }
        while count(current) < current.count {
            var best: (setting: Int, result: [Int: Bool])?
            for s in settings.indices where !free.contains(s) {
                let result = crossValidate(free + [s], folds: folds)
                if best == nil || count(result) > count(best!.result) { best = (s, result) }
            }
            guard let best, count(best.result) > count(current) else { break }
            steps.append(Step(setting: best.setting, before: current, after: best.result))
            free.append(best.setting)
            current = best.result
        }
        return (free, steps)
    }

    package func run(crossValidation: CrossValidation?) throws -> ToolTuneReport {
        let everything = Array(files.indices)
        let folds = try crossValidation.map { cv -> [Fold] in
            files.count < 2 ? [] : try cv.folds(of: recordings)
        } ?? []
        let selection = select(folds: folds)
        let chosen = descend(selection.free, on: everything)

        // The whole search cross-validated: each file scored with what it chose without that file's fold.
        var heldOut: [Int: Bool] = [:]
        for fold in folds {
            let inner = select(folds: crossValidation!.folds(of: fold.training, in: recordings))
            let tool = descend(inner.free, on: fold.training)
            for index in fold.heldOut { heldOut[index] = correct(tool, index) }
        }
        let before = everything.map { correct(start, $0) }
        let heldOutFiles = heldOut.keys.sorted()
        let heldOutCorrect = heldOutFiles.filter { heldOut[$0]! }.count
        let beforeHeldOut = heldOutFiles.filter { before[$0] }.count
        let moves = !folds.isEmpty && heldOutCorrect > beforeHeldOut
        let written = moves ? chosen : start
        let pinchlabCorrect = heldOutFiles.filter { files[$0].pinchlabCorrect }.count

        var changes: [ToolTuneReport.Change] = []
        for step in selection.steps {
            let setting = settings[step.setting]
            let from = setting.get(start), to = setting.get(chosen)
            guard from != to else { continue }
            let heldOut = HeldOutEffect(before: step.before, after: step.after) { files[$0].recording.entry.file }
            changes.append(.init(key: setting.key, before: from, after: to, heldOut: heldOut))
        }

        // Per gesture class: the current settings against each file held out (every file once).
        var classes: [String: (files: Int, before: Int, after: Int)] = [:]
        for index in everything {
            let name = Self.gestureClass(files[index].recording.entry.expect)
            var row = classes[name] ?? (0, 0, 0)
            row.files += 1
            if before[index] { row.before += 1 }
            if heldOut[index] ?? before[index] { row.after += 1 }
            classes[name] = row
        }
        return ToolTuneReport(
            tool: start.name.rawValue, files: files.count, touchpadFiles: files.filter { $0.stream.device.kind == .touchpad }.count, skippedFiles: skipped,
            crossValidation: folds.isEmpty ? nil : crossValidation!.name, folds: folds.count,
            heldOutFiles: heldOutFiles.count, heldOutCorrectBefore: beforeHeldOut, heldOutCorrectAfter: heldOutCorrect,
            correctBefore: before.filter { $0 }.count, correctAfter: everything.filter { correct(written, $0) }.count,
            moved: moves,
            settings: settings.map { s in .init(key: s.key, before: s.get(start), after: s.get(written)) },
            changes: moves ? changes : [],
            searchWouldChange: moves ? [] : changes,
            classes: classes.keys.sorted().map { .init(gestureClass: $0, files: classes[$0]!.files, correctBefore: classes[$0]!.before,
                                                       heldOutCorrectAfter: classes[$0]!.after) },
            pinchlabHeldOutCorrect: folds.isEmpty ? nil : pinchlabCorrect,
            settingsJudged: memo.count,
            tuned: written)
    }

    /// A file's gesture class from its labels: `pinch in`, `swipe 3 fingers left`, `hold 2 fingers`,
    /// `none`; several labels joined with `, then `.
    static func gestureClass(_ labels: [GestureExpectation]) -> String {
        let names = labels.map { label -> String in
            let fingers = label.fingers.map { $0 == 1 ? " 1 finger" : " \($0) fingers" } ?? ""
            switch label.kind {
            case .pinch: return "pinch" + (label.direction.map { " \($0.rawValue)" } ?? "")
            case .pan: return "swipe" + fingers + (label.direction.map { " \($0.rawValue)" } ?? "")
            case .hold: return "hold" + fingers
            case .none: return "none"
            }
        }
        return names.isEmpty ? "none" : names.joined(separator: ", then ")
    }
}

/// What `tune --for TOOL` found.
package struct ToolTuneReport: Sendable, Encodable {
    package struct Setting: Sendable, Encodable {
        package var key: String
        /// nil: the tool's own (touchegg's daemon: from the device's size).
        package var before: Double?
        package var after: Double?
    }

    /// A setting the selection let move, with the held-out files its step fixed and broke.
    package struct Change: Sendable, Encodable {
        package var key: String
        package var before: Double?
        package var after: Double?
        package var heldOut: HeldOutEffect

        enum CodingKeys: String, CodingKey, HeldOutEffectKeys {
            case key, before, after, heldOutCorrectBefore, heldOutCorrectAfter, heldOutFiles, heldOutGain, fixes, breaks
        }
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(before, forKey: .before)
            try c.encode(after, forKey: .after)
            try heldOut.encode(into: &c)
        }
    }

    package struct GestureClass: Sendable, Encodable {
        package var gestureClass: String
        package var files: Int
        /// With the current settings.
        package var correctBefore: Int
        /// Each file with the settings the search chose without it.
        package var heldOutCorrectAfter: Int
    }

    package var tool: String
    /// Files of a kind the tool reads (the others are skipped).
    package var files: Int
    package var touchpadFiles: Int
    package var skippedFiles: Int
    package var crossValidation: String?
    package var folds: Int
    package var heldOutFiles: Int
    /// The current settings on the held-out files (they are not tuned: the same as on all).
    package var heldOutCorrectBefore: Int
    /// Each file scored with what the whole search chose without it.
    package var heldOutCorrectAfter: Int
    package var correctBefore: Int
    /// The written settings on every file (not held out).
    package var correctAfter: Int
    /// Whether anything moved (and --write writes).
    package var moved: Bool
    package var settings: [Setting]
    package var changes: [Change]
    /// What the search on all files would move though it does not beat the current settings held out.
    package var searchWouldChange: [Change]
    package var classes: [GestureClass]
    /// pinchlab's own default settings (`check`) on the same held-out files.
    package var pinchlabHeldOutCorrect: Int?
    /// Distinct settings judged on every file's stream (the streams were made once).
    var settingsJudged: Int
    /// The settings to write.
    package var tuned: GestureToolSettings

    /// Whether pinchlab's default policy beats the tool at its best held out.
    package var pinchlabBeatsTool: Bool {
        guard let pinchlabHeldOutCorrect else { return false }
        return pinchlabHeldOutCorrect > max(heldOutCorrectBefore, heldOutCorrectAfter)
    }

    enum CodingKeys: String, CodingKey {
        case tool, files, touchpadFiles, skippedFiles, crossValidation, folds, heldOutFiles, heldOutCorrectBefore, heldOutCorrectAfter, correctBefore,
             correctAfter, moved, settings, changes, searchWouldChange, classes, pinchlabHeldOutCorrect, pinchlabBeatsTool, settingsJudged
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tool, forKey: .tool)
        try c.encode(files, forKey: .files)
        try c.encode(touchpadFiles, forKey: .touchpadFiles)
        try c.encode(skippedFiles, forKey: .skippedFiles)
        try c.encode(crossValidation, forKey: .crossValidation)
        try c.encode(folds, forKey: .folds)
        try c.encode(heldOutFiles, forKey: .heldOutFiles)
        try c.encode(heldOutCorrectBefore, forKey: .heldOutCorrectBefore)
        try c.encode(heldOutCorrectAfter, forKey: .heldOutCorrectAfter)
        try c.encode(correctBefore, forKey: .correctBefore)
        try c.encode(correctAfter, forKey: .correctAfter)
        try c.encode(moved, forKey: .moved)
        try c.encode(settings, forKey: .settings)
        try c.encode(changes, forKey: .changes)
        try c.encode(searchWouldChange, forKey: .searchWouldChange)
        try c.encode(classes, forKey: .classes)
        try c.encode(pinchlabHeldOutCorrect, forKey: .pinchlabHeldOutCorrect)
        try c.encode(pinchlabBeatsTool, forKey: .pinchlabBeatsTool)
        try c.encode(settingsJudged, forKey: .settingsJudged)
    }
}
