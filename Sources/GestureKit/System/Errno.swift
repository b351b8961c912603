#if canImport(Glibc)
import Glibc
#endif

/// The `errno` of a failed system call, as a value: error payloads carry it instead of a bare
/// `Int32`, callers decide by its `kind` (never by the wording of a message), and the text
/// (`strerror`) is made only where it is printed.
///
/// In the spirit of apple/swift-system's `Errno`; pinchlab's own so it can carry the coarse `Kind`
/// the exit statuses are chosen by, and so the few calls swift-system does not wrap (`poll`,
/// `ioctl`, `ftruncate`, `mkostemp`) live in the same one place (`FileDescriptor`).
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The `errno` the failed call just left; read it first, before any other call can change it.
    public static var current: Errno { Errno(errno) }

    /// What a failure means for the one who asked, whatever call failed.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// No file can be at the path: `ENOENT`; `ENOTDIR` (a component is a file), `ELOOP` (a
        /// symbolic link loop), `ENAMETOOLONG`.
        case notFound
        /// `EACCES`, `EPERM`.
        case permissionDenied
        /// The file system is full or the file may grow no further: `ENOSPC`, `EDQUOT`, `EFBIG`.
        case noSpace
        /// A signal arrived during a blocking call (`EINTR`).
        case interrupted
        /// Nothing to read or no room to write now, on a non-blocking descriptor (`EAGAIN`).
        case wouldBlock
        /// The device behind the file went away or never was: `ENODEV`, `ENXIO`.
        case noDevice
        /// A directory where a file was expected (`EISDIR`).
        case isDirectory
        /// `EEXIST` (an exclusive create).
        case alreadyExists
        /// `EBUSY`.
        case busy
        /// The file does not do what was asked: `ENOTTY` (an ioctl it does not know), `EINVAL`,
        /// `EOPNOTSUPP`.
        case notSupported
        /// The reading end of a pipe or socket is closed (`EPIPE`).
        case brokenPipe
        /// A read-only file system (`EROFS`).
        case readOnlyFileSystem
        /// A hardware or transport failure (`EIO`).
        case inputOutput
        /// Anything else: decide by `rawValue`.
        case other
    }

    public var kind: Kind {
        switch rawValue {
        case ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG: return .notFound
        case EACCES, EPERM: return .permissionDenied
        case ENOSPC, EDQUOT, EFBIG: return .noSpace
        case EINTR: return .interrupted
        case EAGAIN: return .wouldBlock  // EWOULDBLOCK is the same number on Linux
        case ENODEV, ENXIO: return .noDevice
        case EISDIR: return .isDirectory
        case EEXIST: return .alreadyExists
        case EBUSY: return .busy
        case ENOTTY, EINVAL, EOPNOTSUPP: return .notSupported
        case EPIPE: return .brokenPipe
        case EROFS: return .readOnlyFileSystem
        case EIO: return .inputOutput
        default: return .other
        }
    }

    /// `strerror`'s text ("No such file or directory").
    public var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }
}
