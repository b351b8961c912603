import Foundation
import Glibc
import SystemPackage

/// A file of this process's own in `$TMPDIR` (`report`'s parts: its copy of the recording, its JSON
/// log, its page), removed when it is dropped and, while it exists, by a stop signal
/// (`RemovedOnStop`): no exit path leaves it behind.
package final class TemporaryFile {
    package let path: String
    private let removedOnStop: Int?

    /// Creates the empty file `PREFIX-RANDOM.SUFFIX` (`O_EXCL`, mode 0600) in `$TMPDIR`.
    package init(prefix: String, suffix: String) throws {
        let directory = FileManager.default.temporaryDirectory.path
        let made: NotedNewFile?
        do {
            made = try NotedNewFile.make(named: { directory + "/" + prefix + "-" + $0 + suffix }, permissions: [.ownerReadWrite])
        } catch {
            throw RecordingError.system(.writing, path: error.path, line: 0,
                                        expected: "a writable temporary directory ($TMPDIR)", errno: error.errno)
        }
        guard let made else {
            throw RecordingError(path: directory, line: 0, kind: .io, expected: "an unused temporary name in it",
                                 found: "\(NotedNewFile.namingAttempts) names taken")
        }
        path = made.path
        removedOnStop = made.removedOnStop
    }

    deinit {
        unlink(path)
        RemovedOnStop.forget(removedOnStop)
    }

    /// Its size in bytes now.
    package func size() throws -> Int64 {
        do {
            return try Stat(atPath: path).size
        } catch {
            throw RecordingError.system(.reading, path: path, line: 0, expected: "a temporary file this process made", errno: error)
        }
    }
}
