import Foundation
import GestureCore
import InteractiveTransition

/// The corpus the tuner searches on, split by device class, each class's replays memoized per
/// recognizer configuration: the nested cross-validation searches the same settings on many
/// overlapping sets of files, and each (configuration, file) pair is replayed once however many
/// searches ask for it. A point of the search is scored on any subset of the corpus from these.
final class TuningCorpus: @unchecked Sendable {
    let pads: FeatureCache
    let screens: FeatureCache
    /// Each corpus file's class and its position in that class's cache.
    private let location: [(isScreen: Bool, position: Int)]
    var padCount: Int { pads.files.count }
    var screenCount: Int { screens.files.count }

    /// - Parameter budget: recognizer configurations each class may replay (the defaults included).
    init(_ files: [LoadedRecording], budget: Int) {
        var padFiles: [LoadedRecording] = [], screenFiles: [LoadedRecording] = []
        var location: [(Bool, Int)] = []
        for file in files {
            if file.device.deviceClass == .touchscreen {
                location.append((true, screenFiles.count))
                screenFiles.append(file)
            } else {
                location.append((false, padFiles.count))
                padFiles.append(file)
            }
        }
        self.location = location
        pads = FeatureCache(files: padFiles, limit: budget)
        screens = FeatureCache(files: screenFiles, limit: budget)
    }

    /// Whether `setting` can matter on `indices`: a class's recognizer settings only where that
    /// class has files.
    func concerns(_ setting: SearchedSetting, files indices: [Int]) -> Bool {
        switch setting.part {
        case .policy: return !indices.isEmpty
        case .touchpad: return indices.contains { !location[$0].isScreen }
        case .touchscreen: return indices.contains { location[$0].isScreen }
        }
    }

    /// Replays, in one parallel batch per class, the configurations of `points` not replayed yet.
    func prefetch(_ points: [TuningPoint]) throws {
        if padCount > 0 { try pads.replay(points.map(\.touchpad)) }
        if screenCount > 0 { try screens.replay(points.map(\.touchscreen)) }
    }

    /// How each file at `indices` scores with `point`; nil when a configuration of it is over the
    /// budget (the search leaves that point out).
    func verdicts(of point: TuningPoint, files indices: [Int]) throws -> [FileVerdict]? {
        try prefetch([point])
        let needsPads = indices.contains { !location[$0].isScreen }
        let needsScreens = indices.contains { location[$0].isScreen }
        let pad = needsPads ? pads.stored(point.touchpad) : []
        let screen = needsScreens ? screens.stored(point.touchscreen) : []
        guard let pad, let screen else { return nil }
        return indices.map { index in
            let (isScreen, position) = location[index]
            return isScreen
                ? screen[position].verdict(policy: point.policy)
                : pad[position].verdict(policy: point.policy)
        }
    }

    /// Configurations replayed (both classes) and replays run (one file each).
    var configurationsReplayed: Int { pads.configurations + screens.configurations }
    var replays: Int { pads.replays + screens.replays }
}

/// One device class's recordings replayed per recognizer configuration, memoized, at most `limit`
/// configurations (`tune --budget`): a configuration past it is not replayed, and the search
/// leaves out the points that need it.
final class FeatureCache: @unchecked Sendable {
    let files: [LoadedRecording]
    let limit: Int
    private var stored: [GestureRecognizerConfiguration: [ReleaseFeatures]] = [:]
    private let lock = NSLock()
    /// Replays actually run (one file, one configuration).
    private(set) var replays = 0
    var configurations: Int { lock.lock(); defer { lock.unlock() }; return stored.count }

    init(files: [LoadedRecording], limit: Int) {
        self.files = files
        self.limit = limit
    }

    /// The features of every file for `configuration`, if it was replayed.
    func stored(_ configuration: GestureRecognizerConfiguration) -> [ReleaseFeatures]? {
        lock.lock()
        defer { lock.unlock() }
        return stored[configuration]
    }

    /// Stores features measured elsewhere (tests give made-up releases).
    func store(_ features: [ReleaseFeatures], for configuration: GestureRecognizerConfiguration) {
        lock.lock()
        stored[configuration] = features
        lock.unlock()
    }

    /// Replays the configurations not stored yet, in order while the limit allows, every
    /// (configuration, file) pair in parallel. The search runs on one thread, so which
    /// configurations fit under the limit depends only on the order it asks in.
    func replay(_ configurations: [GestureRecognizerConfiguration]) throws {
        lock.lock()
        var missing: [GestureRecognizerConfiguration] = []
        for configuration in configurations where stored[configuration] == nil && !missing.contains(configuration) {
            guard stored.count + missing.count < limit else { break }
            missing.append(configuration)
        }
        lock.unlock()
        let files = self.files
        let count = files.count
        guard !missing.isEmpty && count > 0 else { return }
        let candidates = missing
        let measured = try parallelMap(Array(0..<(candidates.count * count))) { pair in
            var settings = LabSettings.default
            settings.touchpadRecognizer = candidates[pair / count]
            settings.touchscreenRecognizer = candidates[pair / count]
            return try ReleaseFeatures.measure(files[pair % count], settings: settings)
        }
        lock.lock()
        for (n, candidate) in candidates.enumerated() { stored[candidate] = Array(measured[(n * count)..<((n + 1) * count)]) }
        replays += measured.count
        lock.unlock()
    }
}
