import CEvdev
import Foundation
import GestureCore
import SystemPackage
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// SYN_DROPPED, unplugging and stalls, as a device layer sees them through libevdev.
@Suite(.blocking, .needs(.fuse)) struct FaultTests {
    /// Held by the test that makes sockets from another thread during a mount and by the test that
    /// needs its mounts to find libfuse's socket: a mount that sees other new sockets leaves them
    /// all alone, libfuse's too, and that mount's watcher then stays.
    static let socketsAroundMounts = NSLock()

    @Test func overflowMakesLibevdevResyncToTheTrueState() throws {
        let device = try Fixtures.device(test: "fault-overflow")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        let frames = Fixtures.frames(of: Fixtures.twoFingerSpread())
        device.enqueue(frames[0])
        #expect(reader.read(count: frames[0].count, timeoutSeconds: 5) == frames[0])

        // While the client is not reading: finger 0 lifts, finger 1 moves, a new finger lands in slot 0.
        let t: Int64 = 20_000_000
        let burst = Fixtures.frame(t, [
            (.abs, .absMTSlot, 0), (.abs, .absMTTrackingID, -1), (.abs, .absMTSlot, 1), (.abs, .absMTPositionX, 900),
            (.key, .btnToolDoubleTap, 0), (.key, .btnToolFinger, 1),
        ]) + Fixtures.frame(t + 7_000, [
            (.abs, .absMTSlot, 0), (.abs, .absMTTrackingID, 102), (.abs, .absMTPositionX, 111), (.abs, .absMTPositionY, 222),
            (.key, .btnToolFinger, 0), (.key, .btnToolDoubleTap, 1),
        ])
        device.overflow(generating: burst)

        let (status, dropped) = reader.next()
        #expect(status == LIBEVDEV_READ_STATUS_SYNC.rawValue)
        #expect(dropped?.isSynDropped == true)
        var synced: [InputEvent] = []
        while true {
            let (syncStatus, event) = reader.next(sync: true)
            guard syncStatus == LIBEVDEV_READ_STATUS_SYNC.rawValue, let event else { break }
            synced.append(event)
        }
        #expect(!synced.isEmpty)
        #expect(synced.contains { $0.code == .absMTTrackingID && $0.value == 102 })

        // The truth after the burst, written out by hand from `burst`.
        let slot = { (s: UInt32, code: EventCode) in libevdev_get_slot_value(reader.evdev, s, UInt32(code.rawValue)) }
        #expect(slot(0, .absMTTrackingID) == 102)
        #expect(slot(0, .absMTPositionX) == 111)
        #expect(slot(0, .absMTPositionY) == 222)
        #expect(slot(1, .absMTTrackingID) == 101)
        #expect(slot(1, .absMTPositionX) == 900)
        #expect(slot(1, .absMTPositionY) == 400)
        #expect(libevdev_get_event_value(reader.evdev, UInt32(EV_KEY), UInt32(EventCode.btnToolDoubleTap.rawValue)) == 1)
        #expect(libevdev_get_event_value(reader.evdev, UInt32(EV_KEY), UInt32(EventCode.btnToolFinger.rawValue)) == 0)
        #expect(libevdev_get_current_slot(reader.evdev) == 0)
        // After the resync the stream continues normally.
        let next = Fixtures.frame(t + 14_000, [(.abs, .absMTPositionX, 120)])
        device.enqueue(next)
        #expect(reader.read(count: next.count, timeoutSeconds: 5) == next)
    }

    @Test func aSmallClientBufferOverflowsOnItsOwn() throws {
        let options = VirtualEvdevOptions(clientBufferEvents: 8)
        let device = try Fixtures.device(test: "fault-natural-overflow", options: options)
        defer { device.stop() }
        let fd = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let frames = (0..<20).flatMap { Fixtures.frame(Int64($0) * 10, [(.abs, .absX, Int32($0)), (.abs, .absY, Int32($0))]) }
        device.play(frames, speed: 1000)
        #expect(device.waitUntilGenerated(timeoutSeconds: 5))
        Thread.sleep(forTimeInterval: 0.05)
        var buffer = [input_event](repeating: input_event(), count: 16)
        let bytes = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        try #require(bytes > 0)
        let got = buffer.prefix(bytes / MemoryLayout<input_event>.size).map(EvdevReader.event)
        #expect(got.first?.isSynDropped == true)
        #expect(got.count < frames.count)
        #expect(got.last?.isSynReport == true)
    }

    @Test func removalLooksLikeAnUnplug() throws {
        let device = try Fixtures.device(test: "fault-remove")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        device.enqueue(Fixtures.frames(of: Fixtures.twoFingerSpread())[0])
        device.remove()
        #expect(reader.next().status == -ENODEV, "ENODEV even with events still queued, like evdev_read")
        var pfd = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 1_000) == 1)
        #expect(pfd.revents & Int16(POLLERR) != 0 && pfd.revents & Int16(POLLHUP) != 0)
        var id = input_id()
        #expect(ioctl(reader.fd, EvdevIoctl.id, &id) == -1 && errno == ENODEV)
        #expect(open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) == -1 && errno == ENODEV)
    }

    @Test func removalWakesABlockedPoll() throws {
        let device = try Fixtures.device(test: "fault-remove-poll")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            device.remove()
        }
        var pfd = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
        let started = Date()
        #expect(poll(&pfd, 1, 5_000) == 1)
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(pfd.revents & Int16(POLLHUP) != 0)
    }

    @Test func stallDeliversNothingUntilReleased() throws {
        let device = try Fixtures.device(test: "fault-stall")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        let frame = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.stall(true)
        device.enqueue(frame)
        #expect(reader.next().status == -EAGAIN)
        var pfd = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 200) == 0, "a reader's timeout must fire while stalled")
        device.stall(false)
        #expect(reader.read(count: frame.count, timeoutSeconds: 5) == frame)
    }

    /// Sockets another thread makes while a device mounts are left as made. A mount marked every
    /// socket that appeared meanwhile close-on-exec (meant for libfuse's to fusermount3); one was
    /// the end of Foundation's socketpair that a child being spawned must inherit: it closed at
    /// exec, and Foundation waited for that live child in waitpid, stopping every Process of the
    /// test run (seen as a hung CLI test: `live` a zombie, `serve` never interrupted).
    @Test func socketsMadeByAnotherThreadDuringAMountStayInheritable() throws {
        Self.socketsAroundMounts.lock()
        defer { Self.socketsAroundMounts.unlock() }
        // The other thread keeps its last 32 socketpairs open (the mount needs descriptors too);
        // each is looked at before it is closed, and the rest once the mount is done.
        final class Spinner: @unchecked Sendable {
            let lock = NSLock()
            var open: [Int32] = []
            var made = 0, closeOnExec = 0
            var running = true
            func look(at fd: Int32) { if fcntl(fd, F_GETFD) & FD_CLOEXEC != 0 { closeOnExec += 1 } }
        }
        let spinner = Spinner()
        let thread = Thread {
            while spinner.lock.withLock({ spinner.running }) {
                var pair: [Int32] = [0, 0]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { break }
                spinner.lock.withLock {
                    spinner.open += pair
                    spinner.made += 2
                    while spinner.open.count > 64 {
                        let oldest = spinner.open.removeFirst()
                        spinner.look(at: oldest)
                        close(oldest)
                    }
                }
            }
        }
        thread.start()
        while spinner.lock.withLock({ spinner.made == 0 }) { usleep(100) }
        let device = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: Fixtures.directory("fault-sockets"))
        spinner.lock.withLock { spinner.running = false }
        while !thread.isFinished { usleep(100) }
        device.stop()
        let (made, closeOnExec) = spinner.lock.withLock { () -> (Int, Int) in
            for fd in spinner.open { spinner.look(at: fd); close(fd) }
            return (spinner.made, spinner.closeOnExec)
        }
        #expect(made > 100, "the other thread made sockets while the device mounted")
        #expect(closeOnExec == 0, "\(closeOnExec) of \(made) sockets made close-on-exec by the mount")
    }

    @Test func stopUnmountsAndRemovesTheDirectoryItMade() throws {
        let directory = Fixtures.directory("fault-stop")
        let first = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: directory, options: .inTests)
        let path = first.path
        #expect(FileManager.default.fileExists(atPath: path))
        first.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: directory), "the directory it created goes with it")
        first.stop() // idempotent

        // A directory that was there before stays.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { _ = rmdir(directory) }
        let second = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: directory, options: .inTests)
        second.stop()
        #expect(FileManager.default.fileExists(atPath: directory))
        #expect(Fixtures.mounts(at: directory).isEmpty)
    }

    /// Missing parents are made too (as `mkdir -p`), and exactly those go at stop: a parent that
    /// was there stays. A directory that cannot be made, or a file in its place, is a typed error
    /// with its errno, and leaves nothing behind.
    @Test func missingParentsAreMadeAndRemovedAgain() throws {
        let existing = Fixtures.directory("fault-parents")
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
        defer { _ = rmdir(existing) }
        let deep = existing + "/a/b/c"
        let device = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: deep, options: .inTests)
        #expect(FileManager.default.fileExists(atPath: device.path))
        device.stop()
        #expect(!FileManager.default.fileExists(atPath: existing + "/a"), "the three levels it made are gone")
        #expect(FileManager.default.fileExists(atPath: existing), "the parent that was there stays")

        let file = existing + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        defer { unlink(file) }
        for (directory, errno) in [(file, ENOTDIR), (file + "/below", ENOTDIR), ("/proc/pinchlab-nope/x", ENOENT)] {
            do {
                _ = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: directory, options: .inTests)
                Issue.record("\(directory) was accepted")
            } catch VirtualEvdevError.directoryUnusable(_, _, let code) {
                #expect(code == Errno(rawValue: errno), "\(directory): errno \(code)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing) == ["plain-file"], "nothing left behind")
    }

    /// libfuse's socket to the fusermount3 that unmounts after a crash (auto_unmount) is closed
    /// on stop, and no later mount's fusermount3 (nor any other child) inherits it: the watcher of
    /// a stopped device exits, instead of waiting for every process started after it.
    @Test func stoppingEndsTheUnmountWatcherEvenWithLaterMounts() throws {
        Self.socketsAroundMounts.lock()
        defer { Self.socketsAroundMounts.unlock() }
        let (first, second) = try ChildSpawning.whileNoChildStarts {
            (try Fixtures.device(test: "fault-watcher-a", options: VirtualEvdevOptions()),
             try Fixtures.device(test: "fault-watcher-b", options: VirtualEvdevOptions()))
        }
        defer { second.stop() }
        func watchers(of directory: String) -> Int {
            let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return processes.filter { Int($0) != nil }.filter { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return arguments.first?.hasSuffix("fusermount3") == true && arguments.last == directory
            }.count
        }
        #expect(watchers(of: first.directory) == 1)
        #expect(watchers(of: second.directory) == 1)
        first.stop()
        // The watcher exits when it reads the end of its socket, whenever a loaded machine runs it:
        // it is looked for until it is gone; a watcher that never exits is what the bound catches.
        let deadline = Date().addingTimeInterval(60)
        while watchers(of: first.directory) > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(watchers(of: first.directory) == 0, "the stopped device's watcher is gone")
        #expect(watchers(of: second.directory) == 1, "the other device's is still there")
    }

    /// What a crashed run leaves (a mount of ours whose server is gone: "Transport endpoint is not
    /// connected") must not break the next run: it is detached and the new device mounted.
    @Test(.needs(.root)) func aDeadMountOfOursIsReplaced() throws {
        let directory = Fixtures.directory("fault-dead-mount")
        try Fixtures.mountDeadVirtualDevice(at: directory)
        defer { Fixtures.unmount(directory) }
        var info = stat()
        #expect(stat(directory, &info) == -1 && errno == ENOTCONN, "the mount is dead")
        #expect(Fixtures.mounts(at: directory) == ["fuse.vevdev pinchlab"])

        let device = try VirtualEvdevDevice(description: Fixtures.touchscreen, directory: directory, options: .inTests)
        let reader = try EvdevReader(path: device.path)
        #expect(String(cString: libevdev_get_name(reader.evdev)) == Fixtures.touchscreen.name)
        #expect(Fixtures.mounts(at: directory) == ["fuse.vevdev pinchlab"], "the dead one is gone, ours is there")
        device.stop()
        #expect(Fixtures.mounts(at: directory).isEmpty)
    }

    /// A device still being served (here by this process) is not taken over: the second mount is
    /// refused and the first keeps working.
    @Test func aLiveVirtualDeviceIsNotTakenOver() throws {
        let directory = Fixtures.directory("fault-live-mount")
        let first = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: directory, options: .inTests)
        defer { first.stop() }
        do {
            let second = try VirtualEvdevDevice(description: Fixtures.touchscreen, directory: directory, options: .inTests)
            second.stop()
            Issue.record("a second device took over a live mount")
        } catch VirtualEvdevError.directoryInUse(let refused, let reason) {
            #expect(refused == directory)
            #expect(reason.contains("already mounted") && reason.contains(directory), "\(reason)")
        }
        let reader = try EvdevReader(path: first.path)
        #expect(String(cString: libevdev_get_name(reader.evdev)) == Fixtures.clickpad.name)
    }

    /// Someone else's file system mounted on the directory is never detached (detaching a tmpfs
    /// throws its files away): the device refuses, and the tmpfs and its file are still there.
    @Test(.needs(.root)) func anotherFileSystemOnTheDirectoryIsLeftAlone() throws {
        let directory = Fixtures.directory("fault-foreign-mount")
        try Fixtures.mountTmpfs(at: directory, file: "keep.txt", contents: "precious")
        defer { Fixtures.unmount(directory) }
        do {
            let device = try VirtualEvdevDevice(description: Fixtures.clickpad, directory: directory, options: .inTests)
            device.stop()
            Issue.record("a virtual device mounted over someone else's tmpfs")
        } catch let error as VirtualEvdevError {
            guard case .directoryInUse(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("tmpfs") && reason.contains("choose another directory"), "\(reason)")
        }
        #expect(Fixtures.mounts(at: directory) == ["tmpfs pinchlab-test-tmpfs"])
        #expect((try? String(contentsOfFile: directory + "/keep.txt", encoding: .utf8)) == "precious")
    }
}
