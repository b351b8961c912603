import Foundation
import Glibc
import SystemPackage

/// A file of this process's own in `$TMPDIR` (`report`'s parts: its copy of the recording, its JSON
/// log, its page), removed when it is dropped and, while it exists, by a stop signal
/// (`RemovedOnStop`): no exit path leaves it behind.
package final class TemporaryFile {
    package let path: String
    private let removedOnStop: Int?

    /// Names tried before giving up on finding an unused one (each has 64 random bits).
    static let namingAttempts = 16

    /// Creates the empty file `PREFIX-RANDOM.SUFFIX` (`O_EXCL`, mode 0600) in `$TMPDIR`.
    package init(prefix: String, suffix: String) throws {
        let directory = FileManager.default.temporaryDirectory.path
        for _ in 0..<Self.namingAttempts {
            let candidate = directory + "/" + prefix + "-" + String(UInt64.random(in: .min ... .max), radix: 16) + suffix
            do {
                // Made and noted as one step (a stop held back meanwhile): a stop from here on removes it.
                var noted: Int?
                let fd = try StopRequest.holdingStops { () throws(Errno) -> FileDescriptor in
                    let fd = try FileDescriptor.openCloseOnExec(candidate, .writeOnly, options: [.create, .exclusiveCreate],
                                                                permissions: [.ownerReadWrite])
                    noted = RemovedOnStop.note(candidate)
                    return fd
                }
                try? fd.close()
                path = candidate
                removedOnStop = noted
                return
            } catch where error.kind == .alreadyExists {
                continue
            } catch {
                throw RecordingError.system(.writing, path: candidate, line: 0,
                                            expected: "a writable temporary directory ($TMPDIR)", errno: error)
            }
        }
        throw RecordingError(path: directory, line: 0, kind: .io, expected: "an unused temporary name in it",
                             found: "\(Self.namingAttempts) names taken")
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
