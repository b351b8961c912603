import Foundation

/// How the tuner estimates its accuracy on recordings it was not tuned on.
package enum CrossValidation: Sendable, Hashable {
    /// K folds of about equal size, files assigned by a hash of their names (deterministic, and
    /// independent of the manifest's order, which often groups similar files).
    case kFold(Int)
    /// One fold per device (by name): tuned on the other devices, scored on this one.
    case byDevice

    package var name: String {
        switch self {
        case .kFold: return "k-fold"
        case .byDevice: return "leave-one-device-out"
        }
    }

    /// The folds of the whole corpus, as the user asked for them: an error when there cannot be any.
    func folds(of corpus: [LoadedRecording]) throws -> [Fold] {
        switch self {
        case .kFold(let k):
            guard k >= 2 && k <= corpus.count else {
                throw CorpusError(path: "", kind: .badData,
                                  message: "\(k) folds for \(corpus.count) recordings: expected 2 to \(corpus.count) folds")
            }
        case .byDevice:
            guard Set(corpus.map(\.device.name)).count >= 2 else {
                throw CorpusError(path: "", kind: .badData,
                                  message: "leaving one device out needs recordings from 2 devices or more; all \(corpus.count) are from "
                                      + "\"\(oneLine(corpus.first?.device.name ?? ""))\"")
            }
        }
        return folds(of: Array(corpus.indices), in: corpus)
    }

    /// The folds of the files at `indices` (a fold's training files, for the search nested in it):
    /// K folds, fewer when there are fewer files; one per device. Empty when no split is
    /// possible (fewer than 2 files or devices): nothing can then be shown to generalize.
    func folds(of indices: [Int], in corpus: [LoadedRecording]) -> [Fold] {
        var heldOut: [[Int]]
        var devices: [String?]
        switch self {
        case .kFold(let requested):
            let k = min(requested, indices.count)
            guard k >= 2 else { return [] }
            let order = indices.sorted { (Self.hash(corpus[$0].entry.file), $0) < (Self.hash(corpus[$1].entry.file), $1) }
            heldOut = Array(repeating: [], count: k)
            for (position, index) in order.enumerated() { heldOut[position % k].append(index) }
            heldOut = heldOut.map { $0.sorted() }
            devices = Array(repeating: nil, count: k)
        case .byDevice:
            var byName: [String: [Int]] = [:]
            for index in indices { byName[corpus[index].device.name, default: []].append(index) }
            guard byName.count >= 2 else { return [] }
            let names = byName.keys.sorted()
            heldOut = names.map { byName[$0]! }
            devices = names
        }
        return zip(heldOut, devices).map { held, device in
            let out = Set(held)
            return Fold(training: indices.filter { !out.contains($0) }, heldOut: held, device: device)
        }
    }

    /// FNV-1a: stable across runs and platforms (Swift's `hashValue` is seeded per process).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}

/// Held-out accuracy of the whole search, fold by fold, against the defaults'.
package struct CrossValidationReport: Sendable, Encodable {
    package var method: String
    package var folds: Int
    /// Files scored held out (every file once).
    package var files: Int
    /// Held-out files the search gets right: each fold's files scored with the settings it chose
    /// on the other folds.
    package var heldOutCorrect: Int
    package var heldOutAccuracy: Double
    /// The same files with the defaults (which are not tuned, so held out or not is the same).
    package var defaultsHeldOutCorrect: Int
    package var defaultsHeldOutAccuracy: Double
    package var perFold: [FoldReport]
}

package struct FoldReport: Sendable, Encodable {
    package var fold: Int
    /// The device left out (leave-one-device-out only).
    package var heldOutDevice: String?
    package var trainingFiles: Int
    package var heldOutFiles: Int
    package var heldOutCorrect: Int
    package var heldOutAccuracy: Double
    /// What the settings tuned on this fold's training files score on them (the search's figure).
    package var trainingAccuracy: Double
    /// The settings the fold's search moved from their defaults.
    package var moved: [Tuner.SettingMove]
    /// Held-out files the fold's settings get wrong.
    package var wrong: [String]
}

/// Why a tuning's figures should be read with care.
package enum TuneWarning: Sendable, Hashable, Encodable {
    /// Fewer files than `Tuner.minimumFiles`.
    case corpusTooSmall(files: Int, minimum: Int)
    /// A device class with fewer files than `Tuner.minimumFilesPerClass`.
    case classTooSmall(deviceClass: String, files: Int, minimum: Int)
    /// No cross-validation: no setting can be shown to generalize, so none moves.
    case noHeldOutEstimate

    enum CodingKeys: String, CodingKey { case kind, files, minimum, deviceClass }

    package func encode(to encoder: any Encoder) throws {
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
