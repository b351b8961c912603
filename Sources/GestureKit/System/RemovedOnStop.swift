import Glibc
import Synchronization

/// The files a stop signal must not leave behind: a staged output (`StagedOutputFile`) and any
/// temporary file a command makes (`report`'s copy of the recording), noted while they exist. The
/// command line's signal handler (`SignalPolicy`), when it ends the process, removes each with
/// `unlinkAll()`, so an interrupted command leaves its old output and no temporary file.
///
/// Async-signal-safe on the handler's side: a fixed set of atomic slots, each the address of a C
/// string or 0; the handler loads them and calls unlink(2). A path's copy is freed only long
/// after its slot was cleared (`retiredKept` later registrations), never while a handler could
/// still be reading it.
package enum RemovedOnStop {
    /// Files noted at once; a file made while every slot is taken is not noted (a signal then may
    /// leave it, as before). A command makes one or two at a time.
    package static let capacity = 8
    private static let slots = InlineArray<8, Atomic<Int>> { _ in Atomic<Int>(0) }
    /// Copies of paths whose slot was cleared, freed once this many more are retired.
    static let retiredKept = 64
    private static let retired = Mutex<[Int]>([])
    /// An all-or-nothing output is being made (`convert`): a stop says nothing was written.
    private static let abandons = Atomic<Bool>(false)

    /// Whether a stop now leaves the command's output unwritten (set from the start of `convert`
    /// to its commit). Async-signal-safe to read.
    package static var abandonsOutput: Bool {
        get { abandons.load(ordering: .acquiring) }
        set { abandons.store(newValue, ordering: .releasing) }
    }

    /// Makes the slots before any handler can run (a handler must not be the first to touch a global).
    package static func prepare() {
        for index in 0..<capacity { _ = slots[index].load(ordering: .relaxed) }
        for index in 0..<folderCapacity { _ = folders[index].load(ordering: .relaxed); _ = mountPoints[index].load(ordering: .relaxed) }
        _ = abandons.load(ordering: .relaxed)
    }

    /// Notes `path` (a file that now exists) for removal by a stop; returns its slot for `forget`
    /// (nil when every slot is taken).
    package static func note(_ path: String) -> Int? {
        guard let copy = strdup(path) else { return nil }
        let address = Int(bitPattern: copy)
        for index in 0..<capacity where slots[index].compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged {
            return index
        }
        free(copy)
        return nil
    }

    /// The file of `slot` is settled (renamed into place, or removed): a stop leaves it alone.
    static func forget(_ slot: Int?) {
        guard let slot else { return }
        retire([slots[slot].exchange(0, ordering: .acquiringAndReleasing)])
    }

    /// Keeps the copies of cleared slots' paths (0s skipped) until `retiredKept` more come, then
    /// frees the oldest: a handler that loaded an address just before its slot was cleared may
    /// still be reading it.
    private static func retire(_ addresses: [Int]) {
        let freed: [Int] = retired.withLock { retired in
            retired += addresses.filter { $0 != 0 }
            guard retired.count > retiredKept else { return [] }
            let old = Array(retired.prefix(retired.count - retiredKept))
            retired.removeFirst(old.count)
            return old
        }
        for old in freed { free(UnsafeMutableRawPointer(bitPattern: old)) }
    }

    /// Removes every noted file and folder. Async-signal-safe: for the signal handler that ends the process.
    package static func unlinkAll() {
        for index in 0..<capacity {
            let address = slots[index].load(ordering: .acquiring)
            if let path = UnsafePointer<CChar>(bitPattern: address) { unlink(path) }
        }
        for index in 0..<folderCapacity {
            guard let folder = UnsafePointer<CChar>(bitPattern: folders[index].load(ordering: .acquiring)),
                  let mountPoint = UnsafePointer<CChar>(bitPattern: mountPoints[index].load(ordering: .acquiring)) else { continue }
            removeMountedFolder(folder, mountPoint: mountPoint)
        }
    }

    // MARK: Folders with a FUSE mount in them

    /// A served node's folders (`libinput`, `--with-lisgd`: one or two at a time).
    static let folderCapacity = 4
    private static let folders = InlineArray<4, Atomic<Int>> { _ in Atomic<Int>(0) }
    private static let mountPoints = InlineArray<4, Atomic<Int>> { _ in Atomic<Int>(0) }

    /// Notes `folder`, holding the FUSE mount `mountPoint` this process serves, for removal by a
    /// stop; returns its slot for `forgetFolder` (nil when every slot is taken).
    package static func noteMountedFolder(_ folder: String, mountPoint: String) -> Int? {
        guard let folderCopy = strdup(folder), let pointCopy = strdup(mountPoint) else { return nil }
        for index in 0..<folderCapacity
        where mountPoints[index].compareExchange(expected: 0, desired: Int(bitPattern: pointCopy), ordering: .acquiringAndReleasing).exchanged {
            folders[index].store(Int(bitPattern: folderCopy), ordering: .releasing)
            return index
        }
        free(folderCopy)
        free(pointCopy)
        return nil
    }

    /// The folder of `slot` was removed by its owner: a stop leaves it alone.
    package static func forgetFolder(_ slot: Int?) {
        guard let slot else { return }
        retire([folders[slot].exchange(0, ordering: .acquiringAndReleasing),
                mountPoints[slot].exchange(0, ordering: .acquiringAndReleasing)])
    }

    /// Unmounts and removes a served node's folder as the process ends. As root the lazy unmount
    /// frees the mount point at once; otherwise the mount goes only once this process has ended
    /// (libfuse's `auto_unmount` watcher, fusermount3, sees the connection close), so a forked
    /// child, holding none of this process's descriptors (the FUSE connection among them), waits
    /// up to 5 s for it and then removes the folder. Only async-signal-safe calls, in both.
    private static func removeMountedFolder(_ folder: UnsafePointer<CChar>, mountPoint: UnsafePointer<CChar>) {
        _ = umount2(mountPoint, Int32(MNT_DETACH))
        if rmdir(mountPoint) == 0 || errno == ENOENT {
            rmdir(folder)
            return
        }
        guard fork() == 0 else { return }
        // close_range(2) is not in Swift's view of glibc: every descriptor the limit allows, closed.
        var limit = rlimit()
        let highest = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? min(Int(limit.rlim_cur), 1 << 20) : 4096
        for descriptor in 0..<Int32(highest) { close(descriptor) }
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        for _ in 0..<250 {
            if rmdir(mountPoint) == 0 || errno == ENOENT { break }
            nanosleep(&pause, nil)
        }
        rmdir(folder)
        _exit(0)
    }
}
