import GestureCore

/// Writes a `libinput record` YAML file (version 1) for one device, in the layout
/// `libinput record` uses (`tools/libinput-record.c`): header, `devices:` with the `evdev:`
/// description, then `events:` with one `- evdev:` entry per frame.
///
/// LED and switch states (evemu's `L:`/`S:` lines) have no key in libinput's format; they go under
/// `pinchlab-states:` in the `evdev:` mapping, which pinchlab reads back and libinput's readers,
/// which look keys up by name, pass over. Written only when a state is set, so files of touch
/// devices are exactly what `libinput record` writes.
///
/// Times are written as given, so evemu -> YAML -> evemu keeps every event exactly.
public final class LibinputRecordWriter: RecordingWriter {
    /// The format it writes, `libinput record` YAML.
    public var format: RecordingFormat { .libinputRecord }
    /// The device the file describes.
    public let device: DeviceDescription
    /// What it masks and how often it writes.
    public let options: RecordingWriterOptions
    private let output: ByteOutput
    private var isInFrame = false
    private var lastSynTotalMicroseconds: Int64 = 0
    private var isClosed = false

    /// What `- node:` says when the node is not known (a recording converted from evemu).
    public static let unknownNode = "unknown"

    /// - Parameters:
    ///   - path: the file to write.
    ///   - device: the device the events come from, written as the file's description.
    ///   - node: the device node to note in the file (`- node:`).
    ///   - options: whether key codes are masked, and the header's system lines.
    ///   - extras: pinchlab's own data, written under `pinchlab:` before `devices:` (nothing when empty).
    public init(path: String, device: DeviceDescription, node: String = LibinputRecordWriter.unknownNode,
                options: RecordingWriterOptions = RecordingWriterOptions(), extras: PinchlabExtras = PinchlabExtras()) throws {
        self.device = device
        self.options = options
        output = try ByteOutput(path: path, writesEachFlush: options.writesEachFrame)
        try output.removingFileOnFailure {
            try writeHeader()
            try writeExtras(extras)
            output.text("devices:"); try output.newline()
            output.text("- node: "); output.string(LibinputRecordWriter.quoted(node)); try output.newline()
            try writeEvdevDescription()
            output.text("  events:"); try output.newline()
            try output.flush()
        }
    }

    /// Buffers one event (a keyboard key masked per the options).
    public func write(_ event: InputEvent) throws {
        let (event, wasMasked) = try options.eventToWrite(event, writerIsClosed: isClosed, output: output)
        if !isInFrame {
            output.text("  - evdev:"); try output.newline()
            isInFrame = true
        }
        let type = event.type.rawValue
        let code = event.code.rawValue
        output.text("    - [")
        output.decimal(event.time.seconds, width: 3); output.text(", ")
        output.decimal(Int64(event.time.microseconds), width: 6); output.text(", ")
        output.decimal(Int64(type), width: 3); output.text(", ")
        output.decimal(Int64(code), width: 3); output.text(", ")
        output.decimal(Int64(event.value), width: 7); output.text("] # ")
        if event.type == .syn && event.code == .synMTReport {
            output.text("++++++++++++ "); output.cString(EvdevTables.codeName(type, code))
            output.text(" ("); output.decimal(Int64(event.value)); output.text(") ++++++++++")
        } else if event.type == .syn {
            let now = event.time.totalMicroseconds
            let deltaMilliseconds = (now &- lastSynTotalMicroseconds) / 1000
            lastSynTotalMicroseconds = now
            output.text("------------ "); output.cString(EvdevTables.codeName(type, code))
            output.text(" ("); output.decimal(Int64(event.value)); output.text(") ---------- ")
            output.decimal(deltaMilliseconds, plusSign: true); output.text("ms")
        } else {
            output.cString(EvdevTables.typeName(type)); output.text(" / ")
            output.cString(EvdevTables.codeName(type, code), leftAlignedWidth: 20); output.byte(0x20)
            output.decimal(Int64(event.value), width: 6)
            if wasMasked { output.text(" (obfuscated)") }
        }
        try output.newline()
        if event.isSynReport { isInFrame = false }
    }

    /// Indented as the `- evdev:` entries, so it sits inside the `events:` list.
    public func writeComment(_ text: String) throws {
        output.text("  # "); output.string(LibinputRecordWriter.commentSafe(text)); try output.newline()
    }

    /// Writes the buffered lines out.
    public func flush() throws { try output.flush() }

    /// Flushes, ends the YAML document and closes the file.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        try output.close()
    }

    private func writeHeader() throws {
        output.text("# libinput record"); try output.newline()
        output.text("version: 1"); try output.newline()
        output.text("ndevices: 1"); try output.newline()
        output.text("libinput:"); try output.newline()
        output.text("  version: \"pinchlab\""); try output.newline()
        output.text("  git: \"unknown\""); try output.newline()
        output.text("system:"); try output.newline()
        let system = options.systemInfo
        if let os = system?.os { output.text("  os: "); output.string(LibinputRecordWriter.quoted(os)); try output.newline() }
        output.text("  kernel: "); output.string(LibinputRecordWriter.quoted(system?.kernel ?? "unknown")); try output.newline()
        output.text("  dmi: "); output.string(LibinputRecordWriter.quoted(system?.dmi ?? "unknown")); try output.newline()
    }

    /// `pinchlab:` with its texts, then its lists, each in key order, every text quoted.
    private func writeExtras(_ extras: PinchlabExtras) throws {
        guard !extras.isEmpty else { return }
        output.string(PinchlabExtras.key); output.text(":"); try output.newline()
        for (key, text) in extras.texts.sorted(by: { $0.key < $1.key }) {
            output.text("  "); output.string(LibinputRecordWriter.quoted(key)); output.text(": ")
            output.string(LibinputRecordWriter.quoted(text)); try output.newline()
        }
        for (key, list) in extras.lists.sorted(by: { $0.key < $1.key }) {
            output.text("  "); output.string(LibinputRecordWriter.quoted(key)); output.text(":")
            if list.isEmpty { output.text(" []") }
            try output.newline()
            for text in list {
                output.text("  - "); output.string(LibinputRecordWriter.quoted(text)); try output.newline()
            }
        }
    }

    private func writeEvdevDescription() throws {
        output.text("  evdev:"); try output.newline()
        output.text("    # Name: "); output.string(LibinputRecordWriter.commentSafe(device.name)); try output.newline()
        output.text("    # ID: bus 0x"); output.hex(UInt64(device.id.bustype), width: 4)
        output.text(" vendor 0x"); output.hex(UInt64(device.id.vendor), width: 4)
        output.text(" product 0x"); output.hex(UInt64(device.id.product), width: 4)
        output.text(" version 0x"); output.hex(UInt64(device.id.version), width: 4); try output.newline()
        if device.absInfo[.absX] != nil && device.absInfo[.absY] != nil {
            if let size = device.sizeInWholeMillimetres, device.absInfo[.absX]!.resolution != 0,
               device.absInfo[.absY]!.resolution != 0 {
                output.text("    # Size in mm: "); output.decimal(Int64(size.width)); output.text("x")
                output.decimal(Int64(size.height))
            } else {
                output.text("    # Size in mm: unknown, missing resolution")
            }
            try output.newline()
        }
        output.text("    name: "); output.string(LibinputRecordWriter.quoted(device.name)); try output.newline()
        output.text("    id: [")
        output.decimal(Int64(device.id.bustype)); output.text(", ")
        output.decimal(Int64(device.id.vendor)); output.text(", ")
        output.decimal(Int64(device.id.product)); output.text(", ")
        output.decimal(Int64(device.id.version)); output.text("]"); try output.newline()
        output.text("    codes:"); try output.newline()
        for (type, codes) in device.codeListing {
            output.text("      "); output.decimal(Int64(type.rawValue)); output.text(": [")
            for (position, code) in codes.enumerated() {
                if position > 0 { output.text(", ") }
                output.decimal(Int64(code.rawValue))
            }
            output.text("] # "); output.cString(EvdevTables.typeName(type.rawValue)); try output.newline()
        }
        if !device.absInfo.isEmpty {
            output.text("    absinfo:"); try output.newline()
            for (code, axis) in device.absInfo.sorted(by: { $0.key < $1.key }) {
                output.text("      "); output.decimal(Int64(code.rawValue)); output.text(": [")
                output.decimal(Int64(axis.minimum)); output.text(", ")
                output.decimal(Int64(axis.maximum)); output.text(", ")
                output.decimal(Int64(axis.fuzz)); output.text(", ")
                output.decimal(Int64(axis.flat)); output.text(", ")
                output.decimal(Int64(axis.resolution)); output.text("]"); try output.newline()
            }
        }
        output.text("    properties: [")
        for (position, property) in device.properties.sorted().enumerated() {
            if position > 0 { output.text(", ") }
            output.decimal(Int64(property.rawValue))
        }
        output.text("]"); try output.newline()
        try writeStates()
    }

    /// The name of the `evdev:` key for LED and switch states, and of its two mappings.
    static let statesKey = "pinchlab-states"
    static let ledStatesKey = "leds"
    static let switchStatesKey = "switches"

    /// `pinchlab-states: {leds: {<code>: <state>}, switches: {...}}` in block style, zero states left
    /// out as evemu leaves them out.
    private func writeStates() throws {
        let leds = device.ledStates.filter { $0.value != 0 && $0.key <= .ledMax }.sorted { $0.key < $1.key }
        let switches = device.switchStates.filter { $0.value != 0 && $0.key <= .swMax }.sorted { $0.key < $1.key }
        guard !leds.isEmpty || !switches.isEmpty else { return }
        output.text("    "); output.string(LibinputRecordWriter.statesKey)
        output.text(": # LED and switch states (evemu L:/S:), read by pinchlab only"); try output.newline()
        for (key, states) in [(LibinputRecordWriter.ledStatesKey, leds), (LibinputRecordWriter.switchStatesKey, switches)]
        where !states.isEmpty {
            output.text("      "); output.string(key); output.text(": {")
            for (position, (code, state)) in states.enumerated() {
                if position > 0 { output.text(", ") }
                output.decimal(Int64(code.rawValue)); output.text(": "); output.decimal(Int64(state))
            }
            output.text("}"); try output.newline()
        }
    }

    /// A YAML double-quoted scalar: any name (quotes, backslashes, control characters, line
    /// breaks of any kind) reads back exactly. Everything YAML does not allow as printable text,
    /// or reads as a line break (NEL, LS, PS, which a double-quoted scalar would fold), is
    /// escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{85}": result += "\\N"
            case "\u{2028}": result += "\\L"
            case "\u{2029}": result += "\\P"
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where !isPrintableWithoutBreak(scalar):
                result += "\\u" + hexDigits(scalar.value, width: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Text safe inside a `#` comment: nothing YAML would read as a line break or refuse.
    static func commentSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isPrintableWithoutBreak($0) ? $0 : " " }))
    }

    /// YAML 1.1's printable characters (what libyaml's reader accepts) less the line breaks and
    /// the byte order mark, which libyaml treats specially.
    static func isPrintableWithoutBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7e, 0xa0...0xd7ff: return scalar.value != 0x2028 && scalar.value != 0x2029
        case 0xe000...0xfffd: return scalar.value != 0xfeff
        case 0x10000...0x10ffff: return true
        default: return false
        }
    }
}
