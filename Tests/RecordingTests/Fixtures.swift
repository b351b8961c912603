import Foundation
import Glibc
import GestureCore
import PinchlabTestSupport

/// A fresh directory under /tmp for one test's files.
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/pinchlab-recording-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(path != nil, "mkdtemp failed")
    return String(cString: path!)
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

func writeFile(_ path: String, _ text: String) { writeFile(path, Array(text.utf8)) }

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "rb") else { return "" }
    defer { fclose(file) }
    var bytes = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// All events of a source.
func drain(_ source: inout some InputEventSource) throws -> [InputEvent] {
    var events = [InputEvent]()
    while let event = try source.nextEvent() { events.append(event) }
    return events
}

func drainAny(_ source: any InputEventSource) throws -> [InputEvent] {
    var source = source
    return try drain(&source)
}

func code(_ raw: Int) -> EventCode { EventCode(rawValue: UInt16(raw)) }

enum Fixtures {

    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A corpus recording: a two-finger pinch on the corpus touchpad.
    static let pinchRecording = packageRoot.appendingPathComponent("Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu")

    /// ../shared/recordings: other people's recordings (never copied into the project).
    static let sharedRecordings = packageRoot.appendingPathComponent("../shared/recordings").standardized

    /// Every file under `directory` (recursively) whose name ends in one of `extensions`, sorted.
    static func files(under directory: URL, extensions: [String]) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { name in extensions.contains { name.hasSuffix($0) } }
            .map { directory.appendingPathComponent($0).path }.sorted()
    }

    /// Every recording of Fixtures/ whose name ends in one of `extensions`.
    static func recordings(extensions: [String]) -> [String] {
        files(under: packageRoot.appendingPathComponent("Fixtures"), extensions: extensions)
    }

    /// Every recording of ../shared/recordings whose name ends in one of `extensions` (tests that
    /// read them need `.needs(.sharedRecordings)`).
    static func sharedRecordings(extensions: [String]) -> [String] {
        files(under: sharedRecordings, extensions: extensions)
    }

    /// A corpus recording's description and 3,000 event lines of every kind an evemu reader meets:
    /// evemu's comments after values, CRLF line ends (with and without a comment), other spacing (for
    /// the general scanner), comment lines, indented event lines (passed over); a `SYN_REPORT` after every fourth line. Joined without a
    /// newline after the last line, it also ends the way a cut-off file does.
    static func mixedEvemuLines() throws -> (description: String, lines: [String]) {
        let description = try String(contentsOf: pinchRecording, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("E:") }.joined(separator: "\n")
        var lines: [String] = []
        for n in 0..<3_000 {
            let time = String(format: "%d.%06d", 10 + n / 1000, (n % 1000) * 1000)
            var line = "E: \(time) 0003 0035 \(String(format: "%04d", n % 900))"
            switch n % 97 {
            case 5: line += "\t# EV_ABS / ABS_MT_POSITION_X"
            case 11: line += "\r"
            case 13, 29, 31: line += "\t# EV_ABS / ABS_MT_POSITION_X\r"  // evemu's lines with Windows line ends
            case 17: line = line.replacingOccurrences(of: " 0003 ", with: "  0003 ")
            case 23: lines.append("# a comment line")
            case 41: line = " " + line  // indented: passed over, as libevemu does, and noted
            default: break
            }
            lines.append(line)
            if n % 4 == 3 { lines.append("E: \(time) 0000 0000 0000") }
        }
        return (description, lines)
    }

    /// A Synaptics-like clickpad: two slots, finger tools up to five, resolution set.
    static let touchpad = DeviceDescription(
        name: "SynPS/2 Synaptics TouchPad",
        id: InputID(bustype: BusType.i8042, vendor: 0x0002, product: 0x0007, version: 0x01b1),
        properties: [.pointer, .buttonpad],
        codes: [
            .key: [.btnLeft, .btnToolFinger, .btnToolQuintTap, .btnTouch, .btnToolDoubleTap,
                   .btnToolTripleTap, .btnToolQuadTap],
            .msc: [code(5)], // MSC_TIMESTAMP
        ],
        absInfo: [
            .absX: AbsInfo(minimum: 1266, maximum: 5676, fuzz: 0, flat: 0, resolution: 44),
            .absY: AbsInfo(minimum: 1094, maximum: 4760, fuzz: 0, flat: 0, resolution: 64),
            .absPressure: AbsInfo(minimum: 0, maximum: 255),
            .absToolWidth: AbsInfo(minimum: 0, maximum: 15),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 1),
            .absMTPositionX: AbsInfo(minimum: 1266, maximum: 5676, fuzz: 0, flat: 0, resolution: 44),
            .absMTPositionY: AbsInfo(minimum: 1094, maximum: 4760, fuzz: 0, flat: 0, resolution: 64),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            .absMTPressure: AbsInfo(minimum: 0, maximum: 255),
        ]
    )

    /// A direct-touch screen with ten slots, an orientation axis with a negative minimum, and a
    /// `#` in its name (evemu keeps it: the whole `N:` line is the name).
    static let touchscreen = DeviceDescription(
        name: "ELAN # Touchscreen (0x04f3:0x2494)",
        id: InputID(bustype: BusType.i2c, vendor: 0x04f3, product: 0x2494, version: 0x0100),
        properties: [.direct],
        codes: [.key: [.btnTouch]],
        absInfo: [
            .absX: AbsInfo(minimum: 0, maximum: 9600, fuzz: 0, flat: 0, resolution: 31),
            .absY: AbsInfo(minimum: 0, maximum: 5400, fuzz: 0, flat: 0, resolution: 31),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 9),
            .absMTTouchMajor: AbsInfo(minimum: 0, maximum: 255, fuzz: 1, flat: 0, resolution: 0),
            .absMTOrientation: AbsInfo(minimum: -90, maximum: 90, fuzz: 0, flat: 0, resolution: 0),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 9600, fuzz: 4, flat: 0, resolution: 31),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 5400, fuzz: 4, flat: 0, resolution: 31),
            .absMTToolType: AbsInfo(minimum: 0, maximum: 2),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
    )

    /// Deterministic frames of two-finger motion with odd values: -1 tracking ids, negative
    /// orientations, Int32 extremes, microsecond carries, starting at `startSeconds`.
    static func events(count: Int, startSeconds: Int64, seed: UInt64 = 0x9E3779B97F4A7C15) -> [InputEvent] {
        var state = seed
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var events = [InputEvent]()
        var micros = startSeconds * 1_000_000 + 1
        var trackingID: Int32 = 100
        var frame = 0
        while events.count < count {
            let time = EventTime(totalMicroseconds: micros)
            func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            }
            let slot = Int32(frame % 2)
            add(.abs, .absMTSlot, slot)
            switch frame % 25 {
            case 0:
                add(.abs, .absMTTrackingID, trackingID); trackingID += 1
                add(.key, .btnTouch, 1)
                add(.key, .btnToolDoubleTap, 1)
            case 24:
                add(.abs, .absMTTrackingID, -1)
                add(.key, .btnTouch, 0)
            case 12:
                add(.abs, .absMTOrientation, Int32(-random(90)))
                add(.abs, .absMTPressure, frame % 50 == 12 ? Int32.min : Int32.max)
            default:
                add(.abs, .absMTPositionX, Int32(1266 + random(4410)))
                add(.abs, .absMTPositionY, Int32(1094 + random(3666)))
                add(.abs, .absX, Int32(-random(5)))
            }
            add(.msc, code(5), Int32(random(1_000_000)))
            add(.syn, .synReport, 0)
            micros += Int64(6000 + random(2500))
            frame += 1
        }
        return Array(events.prefix(count))
    }
}

