import GestureCore
import Glibc
import SystemPackage

/// What a recording writer needs besides the device: privacy and the system lines of the header.
public struct RecordingWriterOptions: Sendable, Hashable {
    /// Masks keyboard keys (codes below `BTN_MISC`) as `KEY_A` and `MSC_SCAN` values as KEY_A's
    /// scancode, like `libinput record` without `--show-keycodes`, so a recording never carries
    /// typed text. Touch buttons (`BTN_TOUCH`, `BTN_TOOL_*`, `BTN_LEFT`...) are above `BTN_MISC`
    /// and always kept.
    public var maskKeyboardKeys: Bool
    /// Kernel, DMI and OS lines for the header; nil leaves them out (deterministic output).
    public var systemInfo: RecordingSystemInfo?
    /// Each `flush()` (each frame) goes to the file at once: what a recorder read from a device is
    /// on disk a frame later, whatever stops it. False for a file made from another file (`convert`,
    /// a staged whole recording): whole frames are written in 64 KiB blocks.
    public var writesEachFrame: Bool

    /// Options from their three settings.
    public init(maskKeyboardKeys: Bool = true, systemInfo: RecordingSystemInfo? = nil, writesEachFrame: Bool = true) {
        self.maskKeyboardKeys = maskKeyboardKeys
        self.systemInfo = systemInfo
        self.writesEachFrame = writesEachFrame
    }
}

/// The machine a recording was made on, as evemu-record and `libinput record` note it.
public struct RecordingSystemInfo: Sendable, Hashable {
    /// `uname -r`.
    public var kernel: String?
    /// `/sys/class/dmi/id/modalias` without its newline.
    public var dmi: String?
    /// `ID:VERSION_ID` from os-release.
    public var os: String?

    /// System information from its three texts.
    public init(kernel: String? = nil, dmi: String? = nil, os: String? = nil) {
        self.kernel = kernel
        self.dmi = dmi
        self.os = os
    }

    /// Reads this machine's kernel release, DMI modalias and os-release.
    public static func current() -> RecordingSystemInfo {
        var info = RecordingSystemInfo()
        var names = utsname()
        if uname(&names) == 0 {
            info.kernel = withUnsafeBytes(of: &names.release) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        if let modalias = readSmallFile("/sys/class/dmi/id/modalias") {
            info.dmi = modalias.hasSuffix("\n") ? String(modalias.dropLast()) : modalias
        }
        if let release = readSmallFile("/etc/os-release") ?? readSmallFile("/usr/lib/os-release") {
            func field(_ key: String) -> String? {
                for line in release.split(separator: "\n") where line.hasPrefix(key + "=") {
                    return line.dropFirst(key.count + 1).trimmingCharacters(in: "\"'")
                }
                return nil
            }
            if let id = field("ID"), let version = field("VERSION_ID") { info.os = "\(id):\(version)" }
        }
        return info
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.openCloseOnExec(path, .readOnly) else { return nil }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        guard let count = bytes.withUnsafeMutableBytes({ try? fd.readUnlessStopping(into: $0) }), count > 0 else { return nil }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

/// Where a recorder puts events: a file in one of the recording formats.
public protocol RecordingWriter: AnyObject {
    /// The format the writer writes.
    var format: RecordingFormat { get }
    /// Buffers one event (masked per the options).
    func write(_ event: InputEvent) throws
    /// Buffers a comment line (`# text`, control characters as spaces), between frames.
    func writeComment(_ text: String) throws
    /// Writes the buffered lines out; the recorder calls it at each `SYN_REPORT`.
    func flush() throws
    /// Flushes and closes the file. Further writes are an error.
    func close() throws
}

extension RecordingWriterOptions {
    /// What each writer's `write` does before it formats an event: it refuses a closed writer and a
    /// time before 0 (no format writes a negative time), and masks keyboard keys when asked. The
    /// output is an autoclosure, read only to say where an error is: passed as a value, the writer
    /// read it before the checks, and `convert` from YAML cost 3 instructions an event more.
    @inline(__always)
    func eventToWrite(_ event: InputEvent, writerIsClosed: Bool, output: @autoclosure () -> ByteOutput) throws -> (event: InputEvent, wasMasked: Bool) {
        guard !writerIsClosed else {
            throw RecordingError(path: output().path, line: output().lineCount, kind: .io,
                                 expected: "an open writer", found: "a closed one")
        }
        let (event, wasMasked) = maskKeyboardKeys ? KeyPrivacy.masked(event) : (event, false)
        guard event.time.seconds >= 0, event.time.microseconds >= 0 else {
            throw RecordingError(path: output().path, line: output().lineCount + 1, kind: .unwritableEvent,
                                 expected: "a time at or after 0.000000", found: "\(event.time)")
        }
        return (event, wasMasked)
    }
}

/// The privacy rule both writers apply (`obfuscate_keycode` in libinput's `libinput-record.c`).
enum KeyPrivacy {
    /// What libinput writes for a masked `MSC_SCAN`: the scancode of KEY_A.
    static let maskedScancode: Int32 = 30

    /// The event as it may be written, and whether it was changed.
    @inline(__always)
    static func masked(_ event: InputEvent) -> (InputEvent, Bool) {
        var event = event
        if event.type == .key && event.code > .keyReserved && event.code < .btnMisc {
            event.code = .keyA
            return (event, true)
        }
        if event.type == .msc && event.code == .mscScan {
            event.value = maskedScancode
            return (event, true)
        }
        return (event, false)
    }
}

/// Opens a writer for `format`, writing the device description at once. `node` is the device's
/// node (`/dev/input/event5`), which a libinput record keeps and evemu has no place for.
public func makeRecordingWriter(path: String, format: RecordingFormat, device: DeviceDescription, node: String? = nil,
                                options: RecordingWriterOptions = RecordingWriterOptions()) throws -> any RecordingWriter {
    switch format {
    case .evemu: return try EvemuWriter(path: path, device: device, options: options)
    case .libinputRecord:
        return try LibinputRecordWriter(path: path, device: device, node: node ?? LibinputRecordWriter.unknownNode,
                                        options: options)
    }
}

/// Writes a whole recording, `events` of `device`, to `path` all or nothing: staged and renamed
/// into place (`StagedOutputFile`) as every finished output is, so a full disk leaves no
/// half-written recording that a later command would read as a shorter one.
public func writeRecording(_ events: some Sequence<InputEvent>, of device: DeviceDescription, to path: String,
                           format: RecordingFormat = .evemu) throws {
    let staged = StagedOutputFile.canStage(path) ? try StagedOutputFile(destination: path) : nil
    defer { staged?.discard() }
    let writePath = staged?.stagingPath ?? path
    do {
        let writer = try makeRecordingWriter(path: writePath, format: format, device: device,
                                             options: RecordingWriterOptions(writesEachFrame: false))
        for event in events {
            try writer.write(event)
            if event.isSynReport { try writer.flush() }
        }
        try writer.close()
    } catch var error as RecordingError where error.path == writePath {
        // The temporary name means nothing to the user; the file asked for does.
        error.path = path
        throw error
    }
    try staged?.commit()
}

/// `value` in hexadecimal, zero-padded to at least `width` digits (`U+000A`, YAML's `\\u0085`).
func hexDigits(_ value: UInt32, width: Int, uppercase: Bool = false) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
