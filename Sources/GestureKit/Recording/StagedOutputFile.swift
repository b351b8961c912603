import Glibc

/// A file's identity on disk, `(st_dev, st_ino)`: two paths name the same file exactly when their
/// identities are equal, whatever `./`, `..`, symbolic or hard links the paths go through.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file `path` names (following symbolic links), nil when there is none.
    public init?(path: String) {
        guard let status = try? FileStatus(path: path) else { return nil }
        device = status.device
        inode = status.inode
    }

    /// The identity of the file open as `descriptor`, nil when it is not a regular file (a pipe, a
    /// terminal, `/dev/null`: nothing an output path could overwrite).
    public init?(regularFileOpenAs descriptor: FileDescriptor) {
        guard let status = try? descriptor.status(), status.type == .regular else { return nil }
        device = status.device
        inode = status.inode
    }

    /// The first of `paths` that names the same file on disk as `path`, nil when none does (or
    /// nothing is at `path` yet): an output that would overwrite one of a command's inputs.
    public static func firstPath(in paths: [String], sameFileAs path: String) -> String? {
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
public final class StagedOutputFile {
    public let destination: String
    /// Where to write until `commit()`: `.<name>.pinchlab-<random>` beside `destination`.
    public let stagingPath: String
    private var isSettled = false

    /// Names tried before giving up on finding an unused one (each has 64 random bits).
    static let namingAttempts = 16

    /// Whether output to `path` can be staged: nothing is there yet, or a regular file. Anything
    /// else is written in place: renaming over a symbolic link would replace the link, not its
    /// file (and `/dev/stdout` is a link to whatever stdout is, an appended log included), and
    /// renaming over a device or FIFO would replace the node.
    public static func canStage(_ path: String) -> Bool {
        do {
            return try FileStatus(path: path, followingLinks: false).type == .regular
        } catch {
            return error == Errno(ENOENT)
        }
    }

    /// Creates the empty staging file (`O_EXCL`), with the existing destination's mode, or 0644
    /// less the umask as a new file gets.
    public init(destination: String) throws {
        self.destination = destination
        let existingMode = (try? FileStatus(path: destination))?.permissions

        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var created: String?
        for _ in 0..<StagedOutputFile.namingAttempts {
            let candidate = directory + "." + name + ".pinchlab-" + String(UInt64.random(in: .min ... .max), radix: 16)
            do {
                let fd = try FileDescriptor.open(candidate, .writeOnly, options: [.create, .exclusiveCreate])
                if let existingMode { try? fd.setPermissions(existingMode) }
                try? fd.close()
                created = candidate
                break
            } catch where error.kind == .alreadyExists {
                continue
            } catch {
                throw RecordingError.system(.writing, path: destination, line: 0,
                                            expected: "a writable directory to write the file in", errno: error)
            }
        }
        guard let created else {
            throw RecordingError(path: destination, line: 0, kind: .io, expected: "an unused temporary name beside it",
                                 found: "\(StagedOutputFile.namingAttempts) names taken")
        }
        stagingPath = created
    }

    deinit { discard() }

    /// Renames the finished staging file over `destination`.
    public func commit() throws {
        guard !isSettled else { return }
        guard rename(stagingPath, destination) == 0 else {
            let failure = RecordingError.system(.writing, path: destination, line: 0,
                                                expected: "the finished file renamed into place", errno: .current)
            discard()
            throw failure
        }
        isSettled = true
    }

    /// Removes the staging file; the destination is untouched. Does nothing after `commit()`.
    public func discard() {
        guard !isSettled else { return }
        isSettled = true
        unlink(stagingPath)
    }
}
