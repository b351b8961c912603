import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// swift-system's `Errno` is what error payloads carry (never a bare `Int32`); its `description`
/// is `strerror`'s text, made only where it is printed. pinchlab adds the coarse `Kind` its callers
/// and exit statuses decide by, so none of them decides by the wording of a message or lists
/// errno values of its own.
extension Errno {
    /// The `errno` the failed call just left; read it first, before any other call can change it.
    /// (swift-system keeps its own `current` internal.)
    package static var current: Errno { Errno(rawValue: errno) }

    /// Turns a swift-system call's error into the typed `Errno`: its calls declare an untyped
    /// `throws` but throw nothing else, and pinchlab's callers catch `Errno` by its `kind`.
    @inline(__always)
    package static func catching<Result>(_ call: () throws -> Result) throws(Errno) -> Result {
        do {
            return try call()
        } catch let error as Errno {
            throw error
        } catch {
            preconditionFailure("swift-system threw \(type(of: error)), not Errno: \(error)")
        }
    }

    /// What a failure means for the one who asked, whatever call failed.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
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

    package var kind: Kind {
        switch self {
        case .noSuchFileOrDirectory, .notDirectory, .tooManySymbolicLinkLevels, .fileNameTooLong: return .notFound
        case .permissionDenied, .notPermitted: return .permissionDenied
        case .noSpace, .diskQuotaExceeded, .fileTooLarge: return .noSpace
        case .interrupted: return .interrupted
        case .resourceTemporarilyUnavailable: return .wouldBlock  // EWOULDBLOCK is the same number on Linux
        case .operationNotSupportedByDevice, .noSuchAddressOrDevice: return .noDevice  // ENODEV, ENXIO
        case .isDirectory: return .isDirectory
        case .fileExists: return .alreadyExists
        case .resourceBusy: return .busy
        case .inappropriateIOCTLForDevice, .invalidArgument, .notSupportedOnSocket: return .notSupported
        case .brokenPipe: return .brokenPipe
        case .readOnlyFileSystem: return .readOnlyFileSystem
        case .ioError: return .inputOutput
        default: return .other
        }
    }
}
