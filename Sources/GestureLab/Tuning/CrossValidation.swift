import Foundation
import GestureKit

/// How the tuner estimates its accuracy on recordings it was not tuned on.
public enum CrossValidation: Sendable, Hashable {
    /// K folds of about equal size, files assigned by a hash of their names (deterministic, and
    /// independent of the manifest's order, which often groups similar files).
    case kFold(Int)
    /// One fold per device (by name): tuned on the other devices, scored on this one.
    case byDevice

    public var name: String {
        switch self {
        case .kFold: return "k-fold"
        case .byDevice: return "leave-one-device-out"
        }
    }

    struct Fold {
        var heldOut: [Int]
        var device: String?
    }

    func folds(of corpus: [LoadedRecording]) throws -> [Fold] {
        switch self {
        case .kFold(let k):
            guard k >= 2 && k <= corpus.count else {
                throw CorpusError(path: "", kind: .badData,
                                  message: "\(k) folds for \(corpus.count) recordings: expected 2 to \(corpus.count) folds")
            }
            let order = corpus.indices.sorted { (Self.hash(corpus[$0].entry.file), $0) < (Self.hash(corpus[$1].entry.file), $1) }
            var folds = Array(repeating: Fold(heldOut: []), count: k)
            for (position, index) in order.enumerated() { folds[position % k].heldOut.append(index) }
            return folds.map { Fold(heldOut: $0.heldOut.sorted()) }
        case .byDevice:
            var byName: [String: [Int]] = [:]
            for (index, file) in corpus.enumerated() { byName[file.device.name, default: []].append(index) }
            guard byName.count >= 2 else {
                throw CorpusError(path: "", kind: .badData,
                                  message: "leaving one device out needs recordings from 2 devices or more; all \(corpus.count) are from "
                                      + "\"\(oneLine(corpus.first?.device.name ?? ""))\"")
            }
            return byName.keys.sorted().map { Fold(heldOut: byName[$0]!, device: $0) }
        }
    }

    /// FNV-1a: stable across runs and platforms (Swift's `hashValue` is seeded per process).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}

/// Held-out accuracy of the tuning, fold by fold.
public struct CrossValidationReport: Sendable, Encodable {
    public var method: String
    public var folds: Int
    /// Files scored held out (every file once).
    public var files: Int
    public var heldOutCorrect: Int
    public var heldOutAccuracy: Double
    public var perFold: [FoldReport]
}

public struct FoldReport: Sendable, Encodable {
    public var fold: Int
    /// The device left out (leave-one-device-out only).
    public var heldOutDevice: String?
    public var trainingFiles: Int
    public var heldOutFiles: Int
    public var heldOutCorrect: Int
    public var heldOutAccuracy: Double
    /// What the settings tuned on this fold's training files score on them (the search's figure).
    public var trainingAccuracy: Double
    /// Held-out files the fold's settings get wrong.
    public var wrong: [String]
}

/// Why a tuning's figures should be read with care.
public enum TuneWarning: Sendable, Hashable, Encodable {
    /// Fewer files than `Tuner.minimumFiles`.
    case corpusTooSmall(files: Int, minimum: Int)
    /// A device class with fewer files than `Tuner.minimumFilesPerClass`.
    case classTooSmall(deviceClass: String, files: Int, minimum: Int)
    /// No cross-validation: the accuracy reported is on the files tuned on.
    case noHeldOutEstimate

    enum CodingKeys: String, CodingKey { case kind, files, minimum, deviceClass }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .corpusTooSmall(let files, let minimum):
            try c.encode("corpusTooSmall", forKey: .kind)
            try c.encode(files, forKey: .files)
            try c.encode(minimum, forKey: .minimum)
        case .classTooSmall(let deviceClass, let files, let minimum):
            try c.encode("classTooSmall", forKey: .kind)
            try c.encode(deviceClass, forKey: .deviceClass)
            try c.encode(files, forKey: .files)
            try c.encode(minimum, forKey: .minimum)
        case .noHeldOutEstimate:
            try c.encode("noHeldOutEstimate", forKey: .kind)
        }
    }
}

/// One device class's recordings replayed per recognizer configuration, memoized: the folds of a
/// cross-validation search from the same defaults and mostly try the same candidates, so each
/// (configuration, file) pair is replayed once however many folds ask for it.
final class FeatureCache: @unchecked Sendable {
    let files: [LoadedRecording]
    private var stored: [GestureRecognizerConfiguration: [ReleaseFeatures]] = [:]
    private let lock = NSLock()
    /// Replays actually run (one file, one configuration).
    private(set) var replays = 0

    init(files: [LoadedRecording]) { self.files = files }

    /// Each candidate's features for every file, replaying only what is not stored yet, every
    /// (candidate, file) pair in parallel.
    func features(for candidates: [GestureRecognizerConfiguration]) throws -> [[ReleaseFeatures]] {
        lock.lock()
        var missing: [GestureRecognizerConfiguration] = []
        for candidate in candidates where stored[candidate] == nil && !missing.contains(candidate) { missing.append(candidate) }
        lock.unlock()
        let files = self.files
        let count = files.count
        if !missing.isEmpty && count > 0 {
            let missingCandidates = missing
            let measured = try parallelMap(Array(0..<(missing.count * count))) { pair in
                var settings = LabSettings.default
                settings.touchpadRecognizer = missingCandidates[pair / count]
                settings.touchscreenRecognizer = missingCandidates[pair / count]
                return try ReleaseFeatures.measure(files[pair % count], settings: settings)
            }
            lock.lock()
            for (n, candidate) in missing.enumerated() { stored[candidate] = Array(measured[(n * count)..<((n + 1) * count)]) }
            replays += measured.count
            lock.unlock()
        }
        lock.lock()
        defer { lock.unlock() }
        return candidates.map { stored[$0] ?? [] }
    }
}
