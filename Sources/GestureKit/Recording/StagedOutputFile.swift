import Glibc
import SystemPackage

/// A file's identity on disk, `(st_dev, st_ino)`: two paths name the same file exactly when their
/// identities are equal, whatever `./`, `..`, symbolic or hard links the paths go through.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    var inode: UInt64

    /// The identity of the file `path` names (following symbolic links), nil when there is none.
    package init?(path: String) {
        guard let status = try? Stat(atPath: path) else { return nil }
        device = status.deviceNumber
        inode = status.inodeNumber
    }

    /// The identity of the file open as `descriptor`, nil when it is not a regular file (a pipe, a
    /// terminal, `/dev/null`: nothing an output path could overwrite).
    package init?(regularFileOpenAs descriptor: FileDescriptor) {
        guard let status = try? descriptor.stat(), status.type == .regular else { return nil }
        device = status.deviceNumber
        inode = status.inodeNumber
    }

    /// The first of `paths` that names the same file on disk as `path`, nil when none does (or
    /// nothing is at `path` yet): an output that would overwrite one of a command's inputs.
    package static func firstPath(in paths: [String], sameFileAs path: String) -> String? {
        guard let identity = FileIdentity(path: path) else { return nil }
        return paths.first { FileIdentity(path: $0) == identity }
    }
}

/// An output file written under a temporary name in its destination's directory and renamed over
/// the destination only when complete.
///
/// So a write that fails half-way (a bad line in the input, a full disk) leaves no half-written
/// file for a later command to read as if it were whole, and an existing file at the destination
/// stays as it was. The rename is atomic because both names are in one directory. An existing
/// file keeps its permission bits.
///
/// A symbolic link is followed: the file is staged beside the link's target and renamed over the
/// target, so the link stays a link and its file is whole or untouched.
package final class StagedOutputFile {
    /// The path the user named (messages use it).
    package let destination: String
    /// The file renamed over: `destination` with its symbolic links followed.
    package let target: String
    /// Where to write until `commit()`: `.<name>.pinchlab-<random>` beside `target`.
    package let stagingPath: String
    private var isSettled = false
    /// Its note for a stop signal to remove it (`RemovedOnStop`) until it is settled.
    private let removedOnStop: Int?

    /// Symbolic links followed before giving up (the kernel's own limit, `MAXSYMLINKS`).
    static let linkHopsMax = 40

    /// Whether output to `path` can be staged: nothing is there yet, or a regular file (through
    /// any symbolic links). Anything else is written in place: renaming over a device or a FIFO
    /// would replace the node (and `/dev/stdout` is a link to whatever stdout is, a pipe or an
    /// appended log included, which `stat` sees through).
    package static func canStage(_ path: String) -> Bool {
        guard let target = target(of: path) else { return false }
        do {
            return try Stat(atPath: target).type == .regular
        } catch {
            // Nothing there: a new file, or one a dangling link will name.
            let directory = directory(of: target)
            return error == .noSuchFileOrDirectory && (try? Stat(atPath: directory.isEmpty ? "." : directory)) != nil
        }
    }

    /// `path` with its symbolic links followed, up to the file they end at (which need not exist
    /// yet). A link's relative target is taken from the link's directory, as the kernel does. Nil
    /// through `/proc` (`/dev/stdout`, `/dev/fd/N`): those name an open descriptor, which may be
    /// a log opened for appending, to be written where it stands, never replaced.
    package static func target(of path: String) -> String? {
        var current = path
        for _ in 0..<linkHopsMax {
            guard let status = try? Stat(atPath: current, followingLinks: false), status.type == .symbolicLink,
                  let link = readLink(current) else { return current }
            current = link.hasPrefix("/") ? link : directory(of: current) + link
            if current.hasPrefix("/proc/") { return nil }
        }
        return current
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The directory part of `path` with its final slash (`dir/`), or "" for a bare name.
    private static func directory(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
    }

    /// Creates the empty staging file (`O_EXCL`) beside the target, with the existing target's
    /// mode, or 0644 less the umask as a new file gets.
    package init(destination: String) throws {
        self.destination = destination
        let target = StagedOutputFile.target(of: destination) ?? destination
        self.target = target
        let existingMode = (try? Stat(atPath: target))?.permissions

        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let made: NotedNewFile?
        do {
            made = try NotedNewFile.make(named: { directory + "." + name + ".pinchlab-" + $0 }) { fd in
                if let existingMode { try? fd.setPermissions(existingMode) }
            }
        } catch {
            throw RecordingError.system(.writing, path: destination, line: 0,
                                        expected: "a writable directory to write the file in", errno: error.errno)
        }
        guard let made else {
            throw RecordingError(path: destination, line: 0, kind: .io, expected: "an unused temporary name beside it",
                                 found: "\(NotedNewFile.namingAttempts) names taken")
        }
        stagingPath = made.path
        removedOnStop = made.removedOnStop
    }

    deinit { discard() }

    /// Renames the finished staging file over the target (`destination`, or the file its links name).
    package func commit() throws {
        guard !isSettled else { return }
        guard rename(stagingPath, target) == 0 else {
            let failure = RecordingError.system(.writing, path: destination, line: 0,
                                                expected: "the finished file renamed into place", errno: .current)
            discard()
            throw failure
        }
        isSettled = true
        // After the rename: a stop between the two unlinks a name already gone.
        RemovedOnStop.forget(removedOnStop)
    }

    /// Removes the staging file; the destination is untouched. Does nothing after `commit()`.
    package func discard() {
        guard !isSettled else { return }
        isSettled = true
        unlink(stagingPath)
        RemovedOnStop.forget(removedOnStop)
    }
}

extension StagedOutputFile {
    /// Writes `bytes` to `path` whole or not at all: staged and renamed over the file (through a
    /// symbolic link, over its target) when it can be (`canStage`), else (a device, a FIFO,
    /// `/dev/stdout`) written in place. The one way a command writes a finished output file.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let staged = canStage(path) ? try StagedOutputFile(destination: path) : nil
        defer { staged?.discard() }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openCloseOnExec(staged?.stagingPath ?? path, .writeOnly, options: [.create, .truncate])
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a writable file", errno: error)
        }
        do {
            try fd.writeAll(bytes[...])
        } catch {
            try? fd.close()
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful write", errno: error)
        }
        do {
            try fd.closeReportingErrno()
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful close", errno: error)
        }
        try staged?.commit()
    }
}
