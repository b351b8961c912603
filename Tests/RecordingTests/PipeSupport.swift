import Foundation
import Glibc
import Synchronization

/// A pipe fed by a thread of its own, for reading recordings from an unseekable input the way a
/// shell pipeline hands them over. `path` (`/dev/fd/N`) opens the read end again, as
/// `pinchlab stats <(cat file)` does.
final class PipeFeeder: @unchecked Sendable {
    let readFD: Int32
    private let writeFD: Int32
    /// Bytes the feeding thread has written so far.
    let bytesWritten = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    /// Writes each chunk `next` returns, until it returns nil, then closes the write end. A reader
    /// that stops early ends the feeding (the write fails with EPIPE; SIGPIPE is blocked on the
    /// feeding thread).
    init(_ next: @escaping @Sendable () -> [UInt8]?) {
        // An anonymous pipe made close-on-exec at once (pipe2 with O_CLOEXEC): a child another
        // test starts meanwhile (a fusermount3 that lives on) must not inherit the write end, or
        // the reader would never see the end of the stream. Not a named pipe: opening a FIFO's
        // `/dev/fd/N` again blocks until a writer is there, forever when the feeder has already
        // written everything and closed; an anonymous pipe opens at once. (pipe2 is not in Swift's
        // Glibc module, so it is looked up.)
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        let pipe2 = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2"), to: Pipe2.self)
        var ends: [Int32] = [-1, -1]
        precondition(pipe2(&ends, O_CLOEXEC) == 0)
        readFD = ends[0]
        writeFD = ends[1]
        let writeFD = self.writeFD
        Thread.detachNewThread { [self] in
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            feeding: while let chunk = next() {
                var offset = 0
                while offset < chunk.count {
                    let written = chunk.withUnsafeBytes { write(writeFD, $0.baseAddress! + offset, $0.count - offset) }
                    if written < 0 {
                        if errno == EINTR { continue }
                        break feeding
                    }
                    offset += written
                    bytesWritten.add(written, ordering: .sequentiallyConsistent)
                }
            }
            close(writeFD)
            finished.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Feeds `bytes` in 64 KiB chunks.
    convenience init(bytes: [UInt8]) {
        let chunks = Mutex(stride(from: 0, to: bytes.count, by: 1 << 16).map {
            Array(bytes[$0..<min($0 + (1 << 16), bytes.count)])
        }.reversed() as [[UInt8]])
        self.init { chunks.withLock { $0.popLast() } }
    }

    var path: String { "/dev/fd/\(readFD)" }

    /// Closes the test's read end and waits for the feeding thread to stop.
    func finish() {
        close(readFD)
        while !finished.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    }
}

/// The bytes of a file.
func fileBytes(_ path: String) -> [UInt8] {
    Array(FileManager.default.contents(atPath: path) ?? Data())
}
