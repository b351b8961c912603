import GestureCore

/// Writes an evemu 1.3 recording the way `evemu-record` does (libevemu 2.7's `evemu_write` and
/// `evemu_write_event`): header comments, the evtest-like description, `N/I/P/B/A/L/S` lines, the
/// "Waiting for events" banner, then one `E:` line per event with its description comment.
///
/// Times are written as given (evemu-record makes them relative to the first event; pinchlab's
/// recorder does that before writing).
public final class EvemuWriter: RecordingWriter {
    /// The format it writes, evemu.
    public var format: RecordingFormat { .evemu }
    /// The device the file describes.
    public let device: DeviceDescription
    /// What it masks and how often it writes.
    public let options: RecordingWriterOptions
    private let output: ByteOutput
    /// `last_ms` in evemu's `write_event_desc`: the previous SYN's time in ms, for `+Nms`.
    private var lastSynMilliseconds: Int64 = 0
    private var isClosed = false

    /// Throws `.unwritableDescription` before creating the file when the device's name cannot go
    /// on an `N:` line (`problem(writingName:)`): evemu has no escaping, so the file would be
    /// read back differently, or not at all.
    public init(path: String, device: DeviceDescription, options: RecordingWriterOptions = RecordingWriterOptions()) throws {
        if let problem = EvemuWriter.problem(writingName: device.name) {
            throw RecordingError(path: path, line: 0, kind: .unwritableDescription,
                                 expected: "a device name that fits an evemu 'N:' line",
                                 found: "\(RecordingError.quote(device.name)), \(problem); "
                                     + "libinput record YAML (.yml) keeps any name")
        }
        self.device = device
        self.options = options
        output = try ByteOutput(path: path, writesEachFlush: options.writesEachFrame)
        try output.removingFileOnFailure {
            try writeHeader()
            try writeDescriptionComments()
            try writeDescription()
            output.text("################################"); try output.newline()
            output.text("#      Waiting for events      #"); try output.newline()
            output.text("################################"); try output.newline()
            try output.flush()
        }
    }

    /// Buffers one event (a keyboard key masked per the options).
    public func write(_ event: InputEvent) throws {
        let (event, _) = try options.eventToWrite(event, writerIsClosed: isClosed, output: output)
        let type = event.type.rawValue
        let code = event.code.rawValue
        output.text("E: ")
        output.decimal(event.time.seconds)
        output.byte(UInt8(ascii: "."))
        output.decimal(Int64(event.time.microseconds), width: 6, zeroPad: true)
        output.byte(0x20)
        output.hex(UInt64(type), width: 4)
        output.byte(0x20)
        output.hex(UInt64(code), width: 4)
        output.byte(0x20)
        output.decimal(Int64(event.value), width: 4, zeroPad: true)
        output.byte(0x09)
        if event.type == .syn && event.code == .synMTReport {
            output.text("# ++++++++++++ ")
            output.cString(EvdevTables.codeName(type, code))
            output.text(" (")
            output.decimal(Int64(event.value))
            output.text(") ++++++++++")
        } else if event.type == .syn {
            // evemu does this in unsigned long and prints it with %+ld: a backwards step shows negative.
            let milliseconds = event.time.seconds &* 1000 &+ Int64(event.time.microseconds / 1000)
            let delta = milliseconds &- lastSynMilliseconds
            lastSynMilliseconds = milliseconds
            output.text("# ------------ ")
            output.cString(EvdevTables.codeName(type, code))
            output.text(" (")
            output.decimal(Int64(event.value))
            output.text(") ---------- ")
            output.decimal(delta, plusSign: true)
            output.text("ms")
        } else {
            output.text("# ")
            output.cString(EvdevTables.typeName(type))
            output.text(" / ")
            output.cString(EvdevTables.codeName(type, code), leftAlignedWidth: 20)
            output.byte(0x20)
            output.decimal(Int64(event.value))
        }
        try output.newline()
    }

    /// Buffers a comment line (`# text`), between frames.
    public func writeComment(_ text: String) throws {
        output.text("# "); output.string(EvemuWriter.oneLine(text)); try output.newline()
    }

    /// Writes the buffered lines out.
    public func flush() throws { try output.flush() }

    /// Flushes and closes the file.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        try output.close()
    }

    private func writeHeader() throws {
        output.text("# EVEMU 1.3"); try output.newline()
        guard let system = options.systemInfo, let kernel = system.kernel else { return }
        output.text("# Kernel: "); output.string(EvemuWriter.oneLine(kernel)); try output.newline()
        if let dmi = system.dmi { output.text("# DMI: "); output.string(EvemuWriter.oneLine(dmi)); try output.newline() }
    }

    /// `write_desc` in evemu.c: an evtest-like listing as comments.
    private func writeDescriptionComments() throws {
        output.text("# Input device name: \""); output.string(device.name); output.text("\""); try output.newline()
        output.text("# Input device ID: bus "); output.alternateHex(UInt64(device.id.bustype), width: 4)
        output.text(" vendor "); output.alternateHex(UInt64(device.id.vendor), width: 4)
        output.text(" product "); output.alternateHex(UInt64(device.id.product), width: 4)
        output.text(" version "); output.alternateHex(UInt64(device.id.version), width: 4)
        try output.newline()
        if let size = device.sizeInWholeMillimetres, size.width != 0 && size.height != 0 {
            output.text("# Size in mm: "); output.decimal(Int64(size.width)); output.text("x")
            output.decimal(Int64(size.height)); try output.newline()
        }
        output.text("# Supported events:"); try output.newline()
        for (type, codes) in device.codeListing {
            output.text("#   Event type "); output.decimal(Int64(type.rawValue))
            output.text(" ("); output.cString(EvdevTables.typeName(type.rawValue)); output.text(")")
            try output.newline()
            for code in codes {
                output.text("#     Event code "); output.decimal(Int64(code.rawValue))
                output.text(" ("); output.cString(EvdevTables.codeName(type.rawValue, code.rawValue)); output.text(")")
                try output.newline()
                if type == .abs {
                    let axis = device.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    for (label, value, width) in [("Value   ", axis.value, 6), ("Min     ", axis.minimum, 6),
                                                  ("Max     ", axis.maximum, 6), ("Fuzz    ", axis.fuzz, 6),
                                                  ("Flat    ", axis.flat, 6), ("Resolution ", axis.resolution, 3)] {
                        output.text("#       "); output.string(label)
                        output.decimal(Int64(value), width: width); try output.newline()
                    }
                } else if type == .led || type == .sw {
                    let state = (type == .led ? device.ledStates[code] : device.switchStates[code]) ?? 0
                    output.text("#        State "); output.decimal(Int64(state)); try output.newline()
                }
            }
        }
        output.text("# Properties:"); try output.newline()
        for property in device.properties.sorted() {
            output.text("#   Property  type "); output.decimal(Int64(property.rawValue))
            output.text(" ("); output.cString(EvdevTables.propertyName(property.rawValue)); output.text(")")
            try output.newline()
        }
    }

    private func writeDescription() throws {
        output.text("N: "); output.string(device.name); try output.newline()
        output.text("I: ")
        for (index, field) in [device.id.bustype, device.id.vendor, device.id.product, device.id.version].enumerated() {
            if index > 0 { output.byte(0x20) }
            output.hex(UInt64(field), width: 4)
        }
        try output.newline()

        var propertyBytes = [UInt8](repeating: 0, count: 8)
        for property in device.properties where Int(property.rawValue) < InputProperty.count {
            propertyBytes[Int(property.rawValue) / 8] |= 1 << (property.rawValue % 8)
        }
        output.text("P:")
        for byte in propertyBytes { output.byte(0x20); output.hex(UInt64(byte), width: 2) }
        try output.newline()

        // evemu writes EV_SYN as this fixed line ("because older versions printed out exactly that").
        output.text("B: 00 0b 00 00 00 00 00 00 00"); try output.newline()
        for rawType in 1..<EventType.count {
            let maxCode = Int(EvdevTables.maxCode(type: UInt32(rawType)))
            guard maxCode >= 0 else { continue }
            let byteCount = (maxCode + 1 + 7) / 8
            var mask = [UInt8](repeating: 0, count: (byteCount + 7) / 8 * 8)
            for code in device.codes[EventType(rawValue: UInt16(rawType))] ?? [] where Int(code.rawValue) <= maxCode {
                mask[Int(code.rawValue) / 8] |= 1 << (code.rawValue % 8)
            }
            for chunkStart in stride(from: 0, to: byteCount, by: 8) {
                output.text("B: "); output.hex(UInt64(rawType), width: 2)
                for byte in mask[chunkStart..<chunkStart + 8] { output.byte(0x20); output.hex(UInt64(byte), width: 2) }
                try output.newline()
            }
        }
        for code in (device.codes[.abs] ?? []).sorted() where code <= .absMax {
            // An axis listed with no absinfo keeps its `B: 03` bit and gets no `A:` line: that is how
            // evemu says "no range", read back as it was (a warning, the axis treated as missing) and
            // by libevemu as zeros. `A: .. 0 0 0 0 0` would be a position axis with an empty range,
            // a device pinchlab (like libinput) refuses.
            guard let axis = device.absInfo[code] else { continue }
            output.text("A: "); output.hex(UInt64(code.rawValue), width: 2)
            for value in [axis.minimum, axis.maximum, axis.fuzz, axis.flat, axis.resolution] {
                output.byte(0x20); output.decimal(Int64(value))
            }
            try output.newline()
        }
        for (code, state) in device.ledStates.sorted(by: { $0.key < $1.key }) where state != 0 && code <= .ledMax {
            output.text("L: "); output.hex(UInt64(code.rawValue), width: 2); output.byte(0x20)
            output.decimal(Int64(state)); try output.newline()
        }
        for (code, state) in device.switchStates.sorted(by: { $0.key < $1.key }) where state != 0 && code <= .swMax {
            output.text("S: "); output.hex(UInt64(code.rawValue), width: 2); output.byte(0x20)
            output.decimal(Int64(state)); try output.newline()
        }
    }
}

extension EvemuWriter {
    /// Why `name` cannot be written on an evemu `N:` line and read back the same by libevemu and
    /// pinchlab, or nil. The line is `N: <name>` to the end of the line, with no escaping: a line
    /// break would end it (and could forge description lines), other control characters are
    /// mangled by line handling, and readers drop blank space after `N:`.
    public static func problem(writingName name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "which is empty (evemu reads no name from 'N: ')" }
        if let control = name.unicodeScalars.first(where: isUnwritableControl) {
            let what = control == "\n" || control == "\r" ? "a line break" : "a control character"
            return "which holds \(what) (U+\(hexDigits(control.value, width: 4, uppercase: true))), "
                + "and evemu has no escaping"
        }
        if first == " " || first == "\t" { return "which begins with blank space (evemu drops it)" }
        return nil
    }

    /// `name` made writable: control characters become spaces, leading blank space is dropped,
    /// and an empty name becomes `unnamedDeviceName`. For names that come from a device, where
    /// refusing to record would lose the recording.
    public static func writableName(_ name: String) -> String {
        let text = oneLine(name).drop(while: { $0 == " " || $0 == "\t" })
        return text.isEmpty ? unnamedDeviceName : String(text)
    }

    /// `text` for a comment line: control characters (a line break) as spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isUnwritableControl($0) ? " " : $0 }))
    }

    /// What `writableName` calls a device with no name.
    public static let unnamedDeviceName = "unnamed device"

    /// C0 control characters but the tab, and DEL.
    private static func isUnwritableControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7f
    }
}

extension DeviceDescription {
    /// `(max - min) / resolution` of `ABS_X` and `ABS_Y` in whole millimetres, as evemu and
    /// libinput print "Size in mm"; nil without both axes.
    var sizeInWholeMillimetres: (width: Int32, height: Int32)? {
        guard let x = absInfo[.absX], let y = absInfo[.absY] else { return nil }
        // C's int arithmetic, wrapping, never trapping (INT_MIN / -1 included): a comment line only.
        func size(_ axis: AbsInfo) -> Int32 {
            axis.resolution != 0 ? (axis.maximum &- axis.minimum).dividedReportingOverflow(by: axis.resolution).partialValue : 0
        }
        let (width, height) = (size(x), size(y))
        return (width, height)
    }

    /// Every type the device has with its codes in order, as libevdev reports them: EV_SYN first
    /// with all its codes (libevdev answers yes for every EV_SYN code), then the others.
    var codeListing: [(EventType, [EventCode])] {
        var listing: [(EventType, [EventCode])] = [
            (.syn, (0...EventCode.synMax.rawValue).map { EventCode(rawValue: $0) }),
        ]
        for type in codes.keys.sorted() where type != .syn {
            let known = codes[type]!.filter { EvdevTables.isKnown(type: UInt32(type.rawValue), code: UInt32($0.rawValue)) }
            if !known.isEmpty { listing.append((type, known.sorted())) }
        }
        return listing
    }
}
