import SystemPackage

/// A new file made under a random name (`O_EXCL`) and noted for removal by a stop
/// (`RemovedOnStop`) as one step: `TemporaryFile` in `$TMPDIR`, `StagedOutputFile` beside its target.
struct NotedNewFile {
    /// Names tried before giving up on finding an unused one (each has 64 random bits).
    static let namingAttempts = 16

    /// A name that could not be made for another reason than being taken.
    struct Failure: Error {
        var path: String
        var errno: Errno
    }

    let path: String
    /// Its slot in `RemovedOnStop` (nil when every slot was taken).
    let removedOnStop: Int?

    /// Makes the first unused of `namingAttempts` names `name` makes from 64 random bits (in hex),
    /// with `permissions`; nil when every name was taken. `opened` is
    /// given the new file's descriptor before it is closed.
    static func make(named name: (String) -> String, permissions: FilePermissions = FileDescriptor.newFilePermissions,
                     opened: (FileDescriptor) -> Void = { _ in }) throws(Failure) -> NotedNewFile? {
        for _ in 0..<namingAttempts {
            let candidate = name(String(UInt64.random(in: .min ... .max), radix: 16))
            do {
                // Made and noted as one step (a stop held back meanwhile): a stop from here on removes it.
                var noted: Int?
                let fd = try StopRequest.holdingStops { () throws(Errno) -> FileDescriptor in
                    let fd = try FileDescriptor.openCloseOnExec(candidate, .writeOnly, options: [.create, .exclusiveCreate],
                                                                permissions: permissions)
                    noted = RemovedOnStop.note(candidate)
                    return fd
                }
                opened(fd)
                try? fd.close()
                return NotedNewFile(path: candidate, removedOnStop: noted)
            } catch where error.kind == .alreadyExists {
                continue
            } catch {
                throw Failure(path: candidate, errno: error)
            }
        }
        return nil
    }
}
