import Foundation
import GestureKit
import SystemPackage

/// Where a corpus is: its manifest, and the directory its relative `file` paths start from.
public struct CorpusLocation: Sendable, Hashable {
    public var manifestPath: String
    public var directory: String { (manifestPath as NSString).deletingLastPathComponent.nonEmpty ?? "." }

    public init(manifestPath: String) { self.manifestPath = manifestPath }

    /// `file` as a path to open: absolute as written, else relative to the manifest's directory.
    public func path(of file: String) -> String {
        file.hasPrefix("/") ? file : directory + "/" + file
    }

    /// Every file a run over `entries` reads: the manifest and each entry's recording, both halves of
    /// a split one. An output of the run (`check --junit`, `tune --write`) must be none of them.
    public func inputPaths(of entries: [CorpusEntry]) -> [String] {
        [manifestPath] + entries.flatMap { entry in [path(of: entry.file)] + (entry.events.map { [path(of: $0)] } ?? []) }
    }

    /// Opens `entry`'s recording (both halves of a split one).
    public func openRecording(of entry: CorpusEntry) throws -> any RecordingSource {
        try GestureKit.openRecording(path: path(of: entry.file), secondPath: entry.events.map(path(of:)))
    }

    /// `path` as a manifest writes it: relative to the manifest's directory when it lies below it
    /// or beside it (`../shared/...`), absolute otherwise.
    public func manifestFile(for path: String) -> String {
        let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let common = zip(base, target).prefix { $0 == $1 }.count
        // Sharing only "/" (or "/work") means the two are unrelated: keep the absolute path.
        guard common > 1, base.count - common <= 4 else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }
}

/// Reads and writes a corpus: a manifest plus one recording per entry.
public enum CorpusFiles {
    public static let manifestName = "manifest.json"

    /// Writes every generated entry's recording (evemu) and the manifest into `directory`, creating
    /// folders. The bytes depend only on the recipes and seeds, so regenerating gives identical files.
    public static func write(entries: [CorpusEntry], to directory: String) throws {
        try makeDirectory(directory)
        for entry in entries {
            guard let recipe = entry.recipe, let seed = entry.seed, let device = entry.device?.description else { continue }
            let path = directory + "/" + entry.file
            try makeDirectory((path as NSString).deletingLastPathComponent)
            try writeRecording(recipe.events(on: device, seed: seed), of: device, to: path)
        }
        let devices = CorpusEntry.Device.allCases.filter { device in entries.contains { $0.device == device } }
        let manifest = CorpusManifest(
            description: "pinchlab's labelled gesture corpus: synthesized human-like gestures on a touchpad and a "
                + "touchscreen. Regenerate with `pinchlab generate-corpus DIR`; each entry keeps its seed and recipe.",
            generatorVersion: CorpusManifest.currentGeneratorVersion,
            synthesis: .current(devices: devices),
            entries: entries)
        try save(manifest, to: CorpusLocation(manifestPath: directory + "/" + manifestName))
    }

    /// Makes `path` a directory, and its parents, unless it is one (through a symbolic link too).
    /// Something else in the way, a file where a directory is to be (`generate-corpus FILE`) or
    /// under a file (`FILE/corpus`), is `.notADirectory` (a wrong argument, status 64); a directory
    /// that may not be made is `.permissionDenied` (77); any other failure (a full disk, a
    /// read-only file system) is `.write` (74). Each message names the path and what was found.
    public static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CorpusError(path: path, kind: .notADirectory, message: "expected a directory, found a file")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o777) != 0 else { return }
        let failure = Errno(rawValue: errno)
        if failure == .fileExists, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return  // made meanwhile by another
        }
        let kind: CorpusError.Kind
        switch failure {
        case .fileExists, .notDirectory: kind = .notADirectory  // a dangling link, or a file met on the way
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        default: kind = .write
        }
        throw CorpusError(path: path, kind: kind, message: "cannot make the directory: \(failure)")
    }

    /// How long `withManifestLock` waits for another writer of the same corpus.
    public static let manifestLockTimeoutSeconds = 30.0

    /// Runs `body` (a read-modify-write of the manifest: `label`) holding the corpus's lock: an
    /// exclusive `flock` on the manifest's directory, which a rename of the manifest (every save is
    /// staged, then renamed) leaves in place, so that writers started together wait for each other
    /// instead of each writing over the others' entries. The kernel drops the lock however the
    /// process ends. Waits up to `manifestLockTimeoutSeconds`, then fails saying so.
    public static func withManifestLock<T>(_ location: CorpusLocation, _ body: () throws -> T) throws -> T {
        try makeDirectory(location.directory)
        let directory: FileDescriptor
        do {
            directory = try FileDescriptor.openCloseOnExec(location.directory, .readOnly, options: [.directory])
        } catch {
            throw CorpusError(path: location.directory, kind: .write, message: "cannot open the corpus directory to lock it: \(error)")
        }
        defer { try? directory.close() }
        let held: Bool
        do {
            held = try directory.lockExclusive(timeoutSeconds: manifestLockTimeoutSeconds)
        } catch {
            throw CorpusError(path: location.directory, kind: .write, message: "cannot lock the corpus directory: \(error)")
        }
        guard held else {
            if StopRequest.isRequested { throw CorpusError(path: location.manifestPath, kind: .write, message: "stopped while waiting for its lock; nothing was written") }
            throw CorpusError(path: location.manifestPath, kind: .write,
                              message: "another pinchlab has held the corpus's lock for \(Int(manifestLockTimeoutSeconds)) s (a label or tune "
                                + "writing it): nothing was written; try again when it is done")
        }
        return try body()
    }

    /// The corpus `given` names: a manifest file (any `.json`), a directory holding `manifest.json`,
    /// or a directory with exactly one subdirectory that does (so `pinchlab tune Fixtures` finds
    /// `Fixtures/corpus`). Several candidates, or none, is an error that lists what was found.
    public static func locate(_ given: String) throws -> CorpusLocation {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: given, isDirectory: &isDirectory) else {
            throw CorpusError(path: given, kind: .missing, message: "no such file or directory")
        }
        if !isDirectory.boolValue { return CorpusLocation(manifestPath: given) }
        let directory = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
        if fm.fileExists(atPath: directory + "/" + manifestName) {
            return CorpusLocation(manifestPath: directory + "/" + manifestName)
        }
        let children = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        let candidates = children.filter { fm.fileExists(atPath: directory + "/" + $0 + "/" + manifestName) }
        switch candidates.count {
        case 1: return CorpusLocation(manifestPath: directory + "/" + candidates[0] + "/" + manifestName)
        case 0:
            throw CorpusError(path: directory + "/" + manifestName, kind: .noManifest,
                              message: "no manifest: expected \(manifestName) listing the recordings and their labels, "
                                  + "here or in a subdirectory")
        default:
            throw CorpusError(path: directory, kind: .ambiguous,
                              message: "several corpora here (\(candidates.joined(separator: ", "))): name one, "
                                  + "e.g. \(directory)/\(candidates[0])")
        }
    }

    /// The corpus in `directory` (see `locate`), as a directory; kept for callers that name files
    /// relative to it.
    public static func corpusDirectory(in directory: String) throws -> String {
        try locate(directory).directory
    }

    /// Loads `directory/manifest.json`.
    public static func loadManifest(directory: String) throws -> CorpusManifest {
        try loadManifest(at: CorpusLocation(manifestPath: directory + "/" + manifestName))
    }

    /// The largest manifest read: a generated entry (with its recipe) takes under 2 KiB, so this
    /// holds tens of thousands of recordings, and `check /dev/zero` is not read without end.
    public static let manifestBytesMax = 64 << 20

    public static func loadManifest(at location: CorpusLocation) throws -> CorpusManifest {
        let bytes: [UInt8]
        do {
            // Opened as any input is (a FIFO's wait ends on SIGINT/SIGTERM), and read with a bound.
            bytes = try FileDescriptor.contents(ofFile: location.manifestPath, limit: manifestBytesMax)
        } catch {
            throw CorpusError(path: location.manifestPath, kind: .missing,
                              message: "no manifest: expected \(manifestName) listing the recordings and their labels"
                                  + (error.kind == .notFound ? "" : " (\(error))"))
        }
        guard bytes.count <= manifestBytesMax else {
            throw CorpusError(path: location.manifestPath, kind: .badData,
                              message: "expected a manifest of at most \(manifestBytesMax >> 20) MiB, found a larger one")
        }
        return try ManifestReader.read(Data(bytes), path: location.manifestPath)
    }

    /// Writes the manifest whole to a temporary file beside it (beside its target, for a symbolic
    /// link) and renames it into place (`StagedOutputFile`), so an interrupted write never leaves
    /// half a manifest. Keys sorted, two-space indent, one entry per block: diffs of a hand-kept
    /// manifest stay small.
    public static func save(_ manifest: CorpusManifest, to location: CorpusLocation) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest) + Data("\n".utf8)
        try makeDirectory(location.directory)
        do {
            try StagedOutputFile.write(Array(data), to: location.manifestPath)
        } catch let error as RecordingError {
            throw CorpusError(path: location.manifestPath, kind: .write, message: "cannot write the manifest: \(error.found)")
        }
    }
}

public struct CorpusError: Error, CustomStringConvertible, Sendable {
    /// `noManifest`: a directory with no manifest in it or in a subdirectory. `notADirectory`: a
    /// directory to write into is a file, or under one; `permissionDenied`: it may not be made.
    public enum Kind: Sendable { case missing, noManifest, ambiguous, badData, write, notADirectory, permissionDenied }
    public var path: String
    public var kind: Kind
    public var message: String

    public init(path: String, kind: Kind = .badData, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
