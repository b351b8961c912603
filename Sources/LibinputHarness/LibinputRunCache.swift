import Foundation
import GestureCore

/// libinput's output for a recording, kept so that a second run of the same recording with the
/// same libinput and options reads no device and waits for no real time (`--with-libinput`,
/// `pinchlab libinput`, the tools fed by libinput). The key is the recording's events and device
/// description, libinput's version and the options, through two independent 64-bit hashes; the
/// file also holds the event count, checked on reading. Late runs are not kept (libinput's timers
/// may have decided differently); a file that cannot be read back is a miss, never an error.
/// Written to a temporary file in the same folder and renamed, so a reader sees a whole file or none.
package struct LibinputRunCache: Sendable {
    package var directory: String

    package init(directory: String) { self.directory = directory }

    /// `$XDG_CACHE_HOME/pinchlab/libinput`, else `$HOME/.cache/pinchlab/libinput`; nil with
    /// `PINCHLAB_NO_CACHE=1` or no home.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LibinputRunCache? {
        guard environment["PINCHLAB_NO_CACHE"] != "1" else { return nil }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return LibinputRunCache(directory: xdg + "/pinchlab/libinput") }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return LibinputRunCache(directory: home + "/.cache/pinchlab/libinput")
    }

    /// What a run left: libinput's output, and what the verdict needs of the node's measures.
    package struct Run: Sendable, Codable, Equatable {
        package var stdout: String
        package var stderr: String
        package var firstLatenessMicroseconds: Int64
        package var maximumLateMicroseconds: Int64
        package var lateEvents: Int
        package var events: Int
        package var runs: Int
    }

    private struct Stored: Codable {
        var format = 1
        var eventCount: Int
        var run: Run
    }

    /// The key of `events` on `device` under `version` with libinput's `arguments`.
    package static func key(events: [InputEvent], device: DeviceDescription, version: String, arguments: [String]) -> String {
        var a = Hasher64(seed: 0xcbf29ce484222325), b = Hasher64(seed: 0x84222325cbf29ce4)
        func add(_ value: UInt64) { a.add(value); b.add(value &* 0x9E3779B97F4A7C15) }
        func add(_ text: String) { add(UInt64(text.utf8.count)); for byte in text.utf8 { add(UInt64(byte)) } }
        add(version)
        for argument in arguments { add(argument) }
        add(device.name)
        add(UInt64(device.id.bustype) << 48 | UInt64(device.id.vendor) << 32 | UInt64(device.id.product) << 16 | UInt64(device.id.version))
        for property in device.properties.sorted() { add(UInt64(property.rawValue)) }
        for (type, codes) in device.codes.sorted(by: { $0.key < $1.key }) {
            add(UInt64(type.rawValue) << 32)
            for code in codes.sorted() { add(UInt64(code.rawValue)) }
        }
        for (code, info) in device.absInfo.sorted(by: { $0.key < $1.key }) {
            add(UInt64(code.rawValue))
            for value in [info.minimum, info.maximum, info.fuzz, info.flat, info.resolution, info.value] {
                add(UInt64(UInt32(bitPattern: value)))
            }
        }
        add(UInt64(events.count))
        for event in events {
            add(UInt64(bitPattern: event.time.totalMicroseconds))
            add(UInt64(event.type.rawValue) << 48 | UInt64(event.code.rawValue) << 32 | UInt64(UInt32(bitPattern: event.value)))
        }
        return String(a.value, radix: 16) + "-" + String(b.value, radix: 16)
    }

    package func read(key: String, eventCount: Int) -> Run? {
        guard let data = FileManager.default.contents(atPath: path(key)),
              let stored = try? JSONDecoder().decode(Stored.self, from: data),
              stored.format == 1, stored.eventCount == eventCount else { return nil }
        return stored.run
    }

    package func write(_ run: Run, key: String, eventCount: Int) {
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil,
              let data = try? JSONEncoder().encode(Stored(eventCount: eventCount, run: run)) else { return }
        let temporary = directory + "/.\(key).\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, path(key)) != 0 { unlink(temporary) }
    }

    private func path(_ key: String) -> String { directory + "/" + key + ".json" }
}

/// FNV-1a over 64-bit words.
private struct Hasher64 {
    var value: UInt64
    init(seed: UInt64) { value = seed }
    mutating func add(_ word: UInt64) {
        var w = word
        for _ in 0..<8 {
            value ^= w & 0xff
            value &*= 0x100000001b3
            w >>= 8
        }
    }
}
