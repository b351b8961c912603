import GestureCore

/// Which device of a multi-device recording to read.
public enum RecordingDeviceSelector: Sendable, Hashable {
    /// The first device whose `deviceClass` is a touchpad or touchscreen; the first device when
    /// none is.
    case firstTouchDevice
    /// The device at this 0-based position in the `devices:` list.
    case index(Int)
    /// The device recorded from this node, e.g. `/dev/input/event5`.
    case node(String)
}

extension RecordingDeviceSelector: CustomStringConvertible {
    /// Which device, in words (`the first touch device`, `device 1`).
    public var description: String {
        switch self {
        case .firstTouchDevice: return "the first touch device"
        case .index(let index): return "device \(index)"
        case .node(let node): return "the device with node \(node)"
        }
    }
}

/// Reads a `libinput record` YAML file (version 1) as a stream of one device's evdev events.
///
/// Built on libyaml's event parser: events are handed out as they are parsed, memory does not
/// grow with the file. The selected device's event lines in the layout `libinput record` writes
/// are read without libyaml (`CanonicalRecordLines`, under a tenth of libyaml's instructions), libyaml
/// reading the rest from the first other line on, so what the reader gives is the same. Unknown keys, `hid`, `udev`, `quirks`, and `- hid:` / `- libinput:` event
/// entries are skipped. After the device's events the rest of the file is read too (the other
/// devices' events skipped unparsed), so a file cut short or with junk after the events is an
/// error, not a silently shorter recording: `nextEvent()` returns nil only once the whole file
/// has been read. Events after the last `SYN_REPORT` are returned too, and reported in
/// `trailingPartialFrame`.
///
/// The file is read once, front to back (a pipe works), except when the default selection finds
/// no touch device: then the first device is read from a second pass (from a temporary copy of a
/// pipe).
public final class LibinputRecordReader: RecordingSource {
    /// The selected device's description.
    public let device: DeviceDescription
    /// An incomplete frame after the last `SYN_REPORT`; known once `nextEvent()` has returned nil.
    public private(set) var trailingPartialFrame: TrailingPartialFrame?
    /// Problems of the description that did not stop reading.
    public let descriptionWarnings: [DescriptionWarning]
    /// Events that contradict the description; complete once `nextEvent()` has returned nil.
    public var eventContradictions: [EventContradiction] { conformance.contradictions }
    // Noted on every event, from this reader's own methods only and never while another access is
    // open: without `unchecked` each access is a dynamic exclusivity check (as in `EvemuReader`).
    @exclusivity(unchecked) private var conformance: DescriptionConformance
    /// The device's `node:`, if the file gives one.
    public let node: String?
    /// The device's 0-based position in `devices:`.
    public let deviceIndex: Int
    /// pinchlab's own data (`pinchlab:` before `devices:`), empty when the file has none.
    public var extras: PinchlabExtras { document.extras }
    /// How many devices `devices:` lists; known once `nextEvent()` has returned nil.
    public private(set) var deviceCount: Int?
    /// The other devices whose events end inside a frame (a file cut short in another device's
    /// events reads as valid YAML); complete once `nextEvent()` has returned nil.
    public var otherDevicesEndingInsideFrame: [TrailingPartialFrame] { document.otherDevicesEndingInsideFrame }

    /// The only `version:` this reader knows (`FILE_VERSION_NUMBER` in libinput-record.c).
    public static let supportedVersion: Int64 = 1
    static let eventGrammar = "'[<sec>, <usec>, <type>, <code>, <value>]'"
    static let microsecondsPerSecond: Int64 = 1_000_000

    private enum State { case beforeEvents, eventsList, eventItem, frame, finished }
    private var document: RecordDocument
    private var yaml: YAMLEventReader { document.yaml }
    private var state: State
    /// Whether the located device's mapping is still open (its `events:` was read, or is being).
    private let isInsideDevice: Bool
    @exclusivity(unchecked) private var previousTime = EventTime(seconds: .min, microseconds: 0)
    @exclusivity(unchecked) private var frameBoundaries = FrameBoundaryTracker()
    /// Reads the events list's lines while they are canonical, without libyaml; nil once libyaml
    /// reads (or always, when the file or the caller does not allow it).
    @exclusivity(unchecked) private var canonicalLines: CanonicalRecordLines?
    @exclusivity(unchecked) private var isReadingCanonicalLines = false
    /// The line where libyaml took over from `canonicalLines`: it passes over the events before it,
    /// which were handed out already.
    private var handedBackAtLine = 0
    /// Where `canonicalLines` began (the events list's first line) and the line it handed back at
    /// (nil while reading, or when it read to the end of the file), for tests that must know which
    /// reader read what.
    package private(set) var canonicalLinesRange: (first: Int, handedBackAt: Int?)?

    /// Opens a `libinput record` YAML file and reads the selected device's description; throws `RecordingError`.
    public convenience init(path: String, selecting selector: RecordingDeviceSelector = .firstTouchDevice) throws {
        try self.init(input: try LineInput(path: path), selecting: selector)
    }

    /// As `init(path:selecting:)`; `readsCanonicalLines: false` has libyaml read every line (the
    /// reference the direct reading is compared with).
    package convenience init(path: String, selecting selector: RecordingDeviceSelector = .firstTouchDevice,
                             readsCanonicalLines: Bool) throws {
        try self.init(input: try LineInput(path: path), selecting: selector, readsCanonicalLines: readsCanonicalLines)
    }

    /// Reads from `input`, at the start of the file, up to the selected device's events.
    init(input: LineInput, selecting selector: RecordingDeviceSelector, readsCanonicalLines: Bool = true) throws {
        if selector == .firstTouchDevice { try input.keepCopyForRewind() }
        var document = RecordDocument(yaml: try YAMLEventReader(input: input))
        var located = try document.locate(selector)
        if located == nil, selector == .firstTouchDevice {
            // No touch device: the first device, whatever it is.
            try input.rewind()
            document = RecordDocument(yaml: try YAMLEventReader(input: input))
            located = try document.locate(.index(0))
        }
        input.stopKeepingCopy()
        guard let located else { throw document.noSuchDevice(selector) }
        self.document = document
        device = located.device
        descriptionWarnings = located.warnings
        conformance = DescriptionConformance(device: located.device, path: input.path)
        node = located.node
        deviceIndex = located.index
        isInsideDevice = located.isInsideDevice
        state = located.eventsFollow ? .eventsList : .beforeEvents
        if readsCanonicalLines && located.eventsFollow {
            canonicalLines = CanonicalRecordLines(input: input, yaml: document.yaml)
            isReadingCanonicalLines = canonicalLines != nil
            if isReadingCanonicalLines { canonicalLinesRange = (document.yaml.line, nil) }
        }
        document.yaml.stopNotingLineBreaks()
    }

    /// The selected device's next event, nil at the end; throws `RecordingError` for a malformed event.
    public func nextEvent() throws -> InputEvent? {
        // A flag, not `canonicalLines != nil`: comparing the optional copies the scanner each time.
        if isReadingCanonicalLines, let event = nextCanonicalEvent() { return event }
        while true {
            switch state {
            case .finished:
                return nil
            case .beforeEvents:
                try finishDocument()
            case .eventsList:
                try yaml.next()
                switch yaml.kind {
                case .sequenceEnd: try finishDocument()
                case .mappingStart: state = .eventItem
                default: throw malformed("an events entry ('- evdev: [...]')")
                }
            case .eventItem:
                try yaml.next()
                if yaml.kind == .mappingEnd {
                    state = .eventsList
                } else if yaml.scalarIs("evdev") {
                    try yaml.next()
                    if yaml.kind == .sequenceStart { state = .frame } else if !yaml.isNull {
                        throw malformed("a list of events after 'evdev:'")
                    }
                } else if yaml.kind == .scalar {
                    try yaml.next()
                    try yaml.skipNode()
                } else {
                    throw malformed("a key such as 'evdev:' in an events entry")
                }
            case .frame:
                try yaml.next()
                if yaml.kind == .sequenceEnd {
                    state = .eventItem
                    continue
                }
                guard yaml.kind == .sequenceStart else { throw malformed(LibinputRecordReader.eventGrammar) }
                if yaml.line < handedBackAtLine {
                    try yaml.skipNode()
                    continue
                }
                return try parseEvent()
            }
        }
    }

    /// The next event `canonicalLines` reads, accepted as `parseEvent` accepts one; nil when the file
    /// ended (then the stream has ended too) or libyaml is to read on (then `canonicalLines` is nil).
    private func nextCanonicalEvent() -> InputEvent? {
        switch canonicalLines!.next() {
        case .event(let event, let line):
            do {
                try accept(event, line: line)
                return event
            } catch {
                // libyaml reads the event's line again, and `parseEvent` reports this error there.
                canonicalLines!.refuseLastEvent()
            }
        case .endOfFile:
            if let count = document.deviceCountAtEndOfFile {
                canonicalLines = nil
                isReadingCanonicalLines = false
                deviceCount = count
                state = .finished
                trailingPartialFrame = frameBoundaries.trailingPartialFrame(path: yaml.path)
                return nil
            }
        case .handBack:
            break
        }
        // libyaml reads this line and on, and reports whatever is wrong with it.
        let (standIn, line) = canonicalLines!.standIn()
        yaml.resume(with: standIn)
        handedBackAtLine = line
        canonicalLines = nil
        isReadingCanonicalLines = false
        canonicalLinesRange?.handedBackAt = line
        return nil
    }

    /// The device's events are over: reads the rest of the file, so that what follows them is
    /// checked too, then ends the stream.
    private func finishDocument() throws {
        deviceCount = try document.finish(isInsideDevice: isInsideDevice)
        state = .finished
        trailingPartialFrame = frameBoundaries.trailingPartialFrame(path: yaml.path)
    }

    /// Reads the five numbers of one event; the current YAML event is its list's start.
    private func parseEvent() throws -> InputEvent {
        let line = yaml.line
        var numbers: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        for position in 0..<5 {
            try yaml.next()
            guard let number = yaml.scalarInteger else { throw malformed(LibinputRecordReader.eventGrammar) }
            switch position {
            case 0: numbers.0 = number
            case 1: numbers.1 = number
            case 2: numbers.2 = number
            case 3: numbers.3 = number
            default: numbers.4 = number
            }
        }
        try yaml.next()
        guard yaml.kind == .sequenceEnd else {
            throw malformed(LibinputRecordReader.eventGrammar + " with exactly five numbers")
        }
        let (seconds, microseconds, type, code, value) = numbers
        guard seconds >= 0, microseconds >= 0, microseconds < LibinputRecordReader.microsecondsPerSecond,
              value >= Int64(Int32.min), value <= Int64(Int32.max), type >= 0, code >= 0, type <= 0xffff, code <= 0xffff
        else {
            throw RecordingError(path: yaml.path, line: line, kind: .malformedLine,
                                 expected: LibinputRecordReader.eventGrammar + " with usec below 1000000 and a 32-bit value",
                                 found: "[\(seconds), \(microseconds), \(type), \(code), \(value)]")
        }
        let event = InputEvent(time: EventTime(seconds: seconds, microseconds: Int32(microseconds)),
                               type: EventType(rawValue: UInt16(type)), code: EventCode(rawValue: UInt16(code)), value: Int32(value))
        try accept(event, line: line)
        return event
    }

    /// Takes `event`, read on `line`, into the stream: a type and code the kernel defines, a time at
    /// or after the last event's; noted for the frame boundaries and the description's conformance.
    /// Every event goes through here, whichever reader read its line (`parseEvent`,
    /// `canonicalLines`); nothing is noted when it throws.
    @inline(__always)
    private func accept(_ event: InputEvent, line: Int) throws {
        let type = UInt32(event.type.rawValue), code = UInt32(event.code.rawValue)
        guard EvdevTables.isKnown(type: type, code: code) else {
            throw unknownEventCodeError(path: yaml.path, line: line, type: type, code: code,
                                        context: "[\(event.time.seconds), \(event.time.microseconds), \(type), \(code), \(event.value)]")
        }
        guard event.time >= previousTime else {
            throw RecordingError(path: yaml.path, line: line, kind: .timeWentBackwards,
                                 expected: "a time at or after \(previousTime)", found: "\(event.time)")
        }
        previousTime = event.time
        frameBoundaries.note(event, line: line)
        conformance.note(event, line: line)
    }

    private func malformed(_ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine, expected: expected,
                       found: yaml.foundDescription)
    }
}

/// Walks the shape of a `libinput record` document around the events: the top-level mapping
/// (`version:`, `devices:` in either order, other keys skipped), the `devices:` list and each
/// device's keys, up to the selected device's `events:` (`locate`) and from there to the end of
/// the file (`finish`).
private struct RecordDocument {
    /// Where the selected device's events are.
    struct Located {
        var device: DeviceDescription
        /// The description's problems that did not stop reading.
        var warnings: [DescriptionWarning]
        var node: String?
        var index: Int
        /// The current YAML event starts the `events:` list.
        var eventsFollow: Bool
        /// The device's mapping is still open (its `events:` key was read, the list empty or null).
        var isInsideDevice: Bool
    }

    /// A device passed on the way, for messages that list what the file holds.
    struct Passed {
        var node: String?
        var name: String
    }

    let yaml: YAMLEventReader
    private(set) var extras = PinchlabExtras()
    private var sawVersion = false
    private var passed: [Passed] = []
    /// The line of the `devices:` list's start (0: not reached).
    private var devicesListLine = 0
    private(set) var otherDevicesEndingInsideFrame: [TrailingPartialFrame] = []
    /// How many devices a message lists by name.
    static let devicesListedMax = 16
    static let topLevel = "a libinput record file (a YAML mapping with 'version: 1' and 'devices:')"

    init(yaml: YAMLEventReader) { self.yaml = yaml }

    private func notARecord(_ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: max(1, yaml.line), kind: .notALibinputRecord,
                       expected: expected, found: yaml.foundDescription)
    }

    private func malformed(_ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine, expected: expected,
                       found: yaml.foundDescription)
    }

    /// Reads up to the selected device's `events:` list; nil when no device matches (the
    /// `devices:` list has been read to its end then).
    mutating func locate(_ selector: RecordingDeviceSelector) throws -> Located? {
        try openDevicesList()
        while true {
            try yaml.next()
            if yaml.kind == .sequenceEnd { return nil }
            let index = passed.count
            if let located = try readDevice(index: index, selector: selector) { return located }
        }
    }

    /// Reads from the start of the file to the start of the `devices:` list, checking `version:`
    /// if it comes first.
    private mutating func openDevicesList() throws {
        try yaml.next()
        try yaml.next()
        if yaml.kind == .streamEnd {
            throw RecordingError(path: yaml.path, line: 0, kind: .emptyFile,
                                 expected: "a libinput record file ('version: 1')", found: "an empty file")
        }
        try yaml.next()
        guard yaml.kind == .mappingStart else { throw notARecord(RecordDocument.topLevel) }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd {
                throw notARecord(sawVersion ? "a 'devices:' list" : RecordDocument.topLevel)
            }
            guard yaml.kind == .scalar else { throw notARecord(RecordDocument.topLevel) }
            if try readVersion() { continue }
            if yaml.scalarIs("devices") {
                try yaml.next()
                guard yaml.kind == .sequenceStart else { throw notARecord("a list of devices after 'devices:'") }
                devicesListLine = yaml.line
                return
            }
            if yaml.scalarIs("pinchlab") {
                try readExtras()
                continue
            }
            try yaml.next()
            try yaml.skipNode()
        }
    }

    /// Reads `pinchlab:`'s mapping (the current event is its key): texts, and lists of texts;
    /// anything else under it is skipped. Bounded by `PinchlabExtras`' limits.
    private mutating func readExtras() throws {
        try yaml.next()
        guard yaml.kind == .mappingStart else {
            try yaml.skipNode()
            return
        }
        var entries = 0
        func text() throws -> String {
            guard yaml.scalar.count <= PinchlabExtras.textBytesMax, entries < PinchlabExtras.entriesMax,
                  let text = yaml.scalarString else {
                throw malformed("pinchlab's data: texts of at most \(PinchlabExtras.textBytesMax) bytes, "
                                + "\(PinchlabExtras.entriesMax) in all")
            }
            entries += 1
            return text
        }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd { return }
            guard yaml.kind == .scalar, let key = yaml.scalarString else { throw malformed("a key of 'pinchlab:'") }
            try yaml.next()
            switch yaml.kind {
            case .scalar:
                extras.texts[key] = try text()
            case .sequenceStart:
                var list: [String] = []
                while true {
                    try yaml.next()
                    if yaml.kind == .sequenceEnd { break }
                    guard yaml.kind == .scalar else { throw malformed("a text in 'pinchlab: \(key):'") }
                    list.append(try text())
                }
                extras.lists[key] = list
            default:
                try yaml.skipNode()
            }
        }
    }

    /// When the current key is `version`, reads and checks its value (true); else false.
    private mutating func readVersion() throws -> Bool {
        guard yaml.scalarIs("version") else { return false }
        try yaml.next()
        guard let version = yaml.scalarInteger else { throw notARecord("'version: 1'") }
        guard version == LibinputRecordReader.supportedVersion else {
            throw RecordingError(path: yaml.path, line: yaml.line, kind: .unsupportedVersion,
                                 expected: "libinput record 'version: 1'", found: "'version: \(version)'")
        }
        sawVersion = true
        return true
    }

    /// Reads the device whose mapping starts at the current event. When `selector` picks it,
    /// stops at its `events:` value (or at its end when it has none) and returns where; otherwise
    /// reads past it (its events skipped, not parsed) and returns nil.
    private mutating func readDevice(index: Int, selector: RecordingDeviceSelector?) throws -> Located? {
        guard yaml.kind == .mappingStart else { throw malformed("a device ('- node: ...')") }
        var node: String?
        var device: DeviceDescription?
        var warnings: [DescriptionWarning] = []
        func isSelected(_ device: DeviceDescription) -> Bool {
            switch selector {
            case .none: return false
            case .firstTouchDevice: return device.deviceClass != .other
            case .index(let wanted): return index == wanted
            case .node(let wanted): return node == wanted
            }
        }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd {
                guard let device else {
                    throw RecordingError(path: yaml.path, line: yaml.line, kind: .missingDescription,
                                         expected: "an 'evdev:' description in each device",
                                         found: "the end of the device")
                }
                passed.append(Passed(node: node, name: device.name))
                if isSelected(device) {
                    return Located(device: device, warnings: warnings, node: node, index: index, eventsFollow: false, isInsideDevice: false)
                }
                return nil
            }
            guard yaml.kind == .scalar else { throw malformed("a key of the device") }
            if yaml.scalarIs("node") {
                try yaml.next()
                node = yaml.scalarString
            } else if yaml.scalarIs("evdev") {
                try yaml.next()
                let parsed = try EvdevDescriptionParser.parse(yaml)
                device = parsed.0
                warnings = parsed.1
            } else if yaml.scalarIs("events") {
                let keyLine = yaml.line
                try yaml.next()
                guard let device else {
                    throw RecordingError(path: yaml.path, line: keyLine, kind: .missingDescription,
                                         expected: "'evdev:' (the device description) before 'events:'",
                                         found: "'events:'")
                }
                guard isSelected(device) else {
                    try skipEvents(deviceIndex: index)
                    continue
                }
                passed.append(Passed(node: node, name: device.name))
                if yaml.kind == .sequenceStart {
                    return Located(device: device, warnings: warnings, node: node, index: index, eventsFollow: true, isInsideDevice: true)
                }
                guard yaml.isNull else { throw malformed("a list after 'events:'") }
                return Located(device: device, warnings: warnings, node: node, index: index, eventsFollow: false, isInsideDevice: true)
            } else {
                try yaml.next()
                try yaml.skipNode()
            }
        }
    }

    /// Passes over another device's `events:` value (the current event), checking its shape and
    /// where its frames end, not its numbers.
    private mutating func skipEvents(deviceIndex: Int) throws {
        if yaml.isNull { return }
        guard yaml.kind == .sequenceStart else { throw malformed("a list after 'events:'") }
        var frames = FrameBoundaryTracker()
        while true {
            try yaml.next()
            if yaml.kind == .sequenceEnd { break }
            guard yaml.kind == .mappingStart else { throw malformed("an events entry ('- evdev: [...]')") }
            while true {
                try yaml.next()
                if yaml.kind == .mappingEnd { break }
                guard yaml.kind == .scalar else { throw malformed("a key such as 'evdev:' in an events entry") }
                guard yaml.scalarIs("evdev") else {
                    try yaml.next()
                    try yaml.skipNode()
                    continue
                }
                try yaml.next()
                if yaml.isNull { continue }
                guard yaml.kind == .sequenceStart else { throw malformed("a list of events after 'evdev:'") }
                while true {
                    try yaml.next()
                    if yaml.kind == .sequenceEnd { break }
                    let line = yaml.line
                    // [sec, usec, type, code, value]: only type and code are kept, to find SYN_REPORTs.
                    var count = 0
                    var isSynReport = true
                    if yaml.kind == .sequenceStart {
                        while true {
                            try yaml.next()
                            guard let number = yaml.scalarInteger, count < 5 else { break }
                            if count == 2 { isSynReport = number == Int64(EventType.syn.rawValue) }
                            if count == 3 { isSynReport = isSynReport && number == Int64(EventCode.synReport.rawValue) }
                            count += 1
                        }
                    }
                    guard count == 5, yaml.kind == .sequenceEnd else { throw malformed(LibinputRecordReader.eventGrammar) }
                    frames.note(isSynReport: isSynReport, line: line)
                }
            }
        }
        if var partial = frames.trailingPartialFrame(path: yaml.path) {
            partial.otherDeviceIndex = deviceIndex
            otherDevicesEndingInsideFrame.append(partial)
        }
    }

    /// What `finish(isInsideDevice: true)` returns when the file ends right after the selected
    /// device's events in block style: every mapping and list closes there, so only a missing
    /// `version:` is an error (nil: `finish` is to report it).
    var deviceCountAtEndOfFile: Int? { sawVersion ? passed.count : nil }

    /// Reads from the end of the selected device's events to the end of the file: the device's
    /// other keys, the other devices (checked, their events skipped), the other top-level keys,
    /// and nothing after the document. Returns how many devices the file holds.
    mutating func finish(isInsideDevice: Bool) throws -> Int {
        if isInsideDevice {
            while true {
                try yaml.next()
                if yaml.kind == .mappingEnd { break }
                guard yaml.kind == .scalar else { throw malformed("a key of the device") }
                try yaml.next()
                try yaml.skipNode()
            }
        }
        while true {
            try yaml.next()
            if yaml.kind == .sequenceEnd { break }
            _ = try readDevice(index: passed.count, selector: nil)
        }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd { break }
            guard yaml.kind == .scalar else { throw notARecord("a key of the libinput record mapping") }
            if try readVersion() { continue }
            if yaml.scalarIs("devices") { throw notARecord("one 'devices:' list") }
            try yaml.next()
            try yaml.skipNode()
        }
        guard sawVersion else {
            throw RecordingError(path: yaml.path, line: yaml.line, kind: .notALibinputRecord,
                                 expected: "'version: 1' in the libinput record mapping", found: "no 'version:'")
        }
        try yaml.next()
        guard yaml.kind == .documentEnd else { throw malformed("the end of the libinput record document") }
        try yaml.next()
        if yaml.kind == .documentStart {
            throw RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine,
                                 expected: "the end of the file (a libinput record is one YAML document)",
                                 found: "a second document")
        }
        guard yaml.kind == .streamEnd else { throw malformed("the end of the file") }
        return passed.count
    }

    /// The error for a selector that matched nothing, listing the devices the file has.
    func noSuchDevice(_ selector: RecordingDeviceSelector) -> RecordingError {
        let wanted: String
        switch selector {
        case .firstTouchDevice: wanted = "at least one device"
        case .index(let index): wanted = "a device at index \(index)"
        case .node(let node): wanted = "a device with node \(node)"
        }
        guard !passed.isEmpty else {
            // No device at all is the file's fault, whatever was asked for: bad data (65), not a
            // wrong `--device` (64).
            return RecordingError(path: yaml.path, line: devicesListLine, kind: .missingDescription,
                                  expected: "at least one device in 'devices:'", found: "an empty list")
        }
        var listing = passed.prefix(RecordDocument.devicesListedMax).enumerated().map { index, device in
            "\(index) \(device.node ?? "(no node)") \(RecordingError.quote(device.name))"
        }
        if passed.count > RecordDocument.devicesListedMax { listing.append("...") }
        let count = passed.count == 1 ? "1 device" : "\(passed.count) devices"
        return RecordingError(path: yaml.path, line: 0, kind: .noSuchDevice, expected: wanted,
                              found: "\(count): " + listing.joined(separator: ", "))
    }
}

/// Reads a device's `evdev:` mapping: `name`, `id`, `codes`, `absinfo`, `properties`, and the LED
/// and switch states pinchlab's writer keeps under `pinchlab-states`. Other keys are skipped.
private enum EvdevDescriptionParser {
    static let absinfoGrammar = "'<code>: [<min>, <max>, <fuzz>, <flat>, <resolution>]'"

    static func parse(_ yaml: YAMLEventReader) throws -> (DeviceDescription, [DescriptionWarning]) {
        guard yaml.kind == .mappingStart else { throw error(yaml, "a mapping after 'evdev:'") }
        let startLine = yaml.line
        var name: String?
        var id: InputID?
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        var properties = Set<InputProperty>()
        var ledStates: [EventCode: Int32] = [:]
        var switchStates: [EventCode: Int32] = [:]
        var warnings: [EventCode: DescriptionWarning] = [:]
        var axisListedAt: [EventCode: Int] = [:]
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd { break }
            guard yaml.kind == .scalar else { throw error(yaml, "a key of 'evdev:'") }
            if yaml.scalarIs("name") {
                try yaml.next()
                guard let text = yaml.scalarString else { throw error(yaml, "a device name") }
                name = text
            } else if yaml.scalarIs("id") {
                try yaml.next()
                let fields = try integers(yaml, count: 4, grammar: "'id: [<bus>, <vendor>, <product>, <version>]'")
                guard fields.allSatisfy({ (0...0xffff).contains($0) }) else {
                    throw error(yaml, "ids from 0 to 65535")
                }
                id = InputID(bustype: UInt16(fields[0]), vendor: UInt16(fields[1]), product: UInt16(fields[2]),
                             version: UInt16(fields[3]))
            } else if yaml.scalarIs("codes") {
                try yaml.next()
                try forEachEntry(yaml, "a mapping of '<type>: [<codes>]'") { key in
                    let line = yaml.line
                    let list = try integers(yaml, count: nil, grammar: "'<type>: [<code>, ...]'")
                    for code in list {
                        guard key >= 0, code >= 0, EvdevTables.isKnown(type: UInt32(clamping: key), code: UInt32(clamping: code)) else {
                            throw unknownEventCodeError(path: yaml.path, line: line, type: UInt32(clamping: key),
                                                        code: UInt32(clamping: code), context: "'codes:'")
                        }
                        if key != Int64(EventType.syn.rawValue) {
                            codes[EventType(rawValue: UInt16(key)), default: []].insert(EventCode(rawValue: UInt16(code)))
                        }
                        if key == Int64(EventType.abs.rawValue) { axisListedAt[EventCode(rawValue: UInt16(code))] = line }
                    }
                }
            } else if yaml.scalarIs("absinfo") {
                try yaml.next()
                if yaml.isNull { continue }
                try forEachEntry(yaml, "a mapping of " + absinfoGrammar) { code in
                    let line = yaml.line
                    let numbers = try integers(yaml, count: 5, grammar: absinfoGrammar)
                    guard numbers.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }) else {
                        throw error(yaml, "32-bit absinfo numbers")
                    }
                    guard code >= 0, EvdevTables.isKnown(type: UInt32(EventType.abs.rawValue), code: UInt32(clamping: code)) else {
                        throw unknownEventCodeError(path: yaml.path, line: line, type: UInt32(EventType.abs.rawValue),
                                                    code: UInt32(clamping: code), context: "'absinfo:'")
                    }
                    let axis = EventCode(rawValue: UInt16(code))
                    let info = AbsInfo(minimum: Int32(numbers[0]), maximum: Int32(numbers[1]), fuzz: Int32(numbers[2]),
                                       flat: Int32(numbers[3]), resolution: Int32(numbers[4]))
                    warnings[axis] = try DescriptionLimits.check(axis: axis, info, path: yaml.path, line: line)
                    absInfo[axis] = info
                }
            } else if yaml.scalarIs("properties") {
                try yaml.next()
                for property in try integers(yaml, count: nil, grammar: "'properties: [<property>, ...]'") {
                    guard property >= 0 && property < Int64(InputProperty.count) else {
                        throw RecordingError(path: yaml.path, line: yaml.line, kind: .unknownEventCode,
                                             expected: "properties up to INPUT_PROP_MAX (31)", found: "\(property)")
                    }
                    properties.insert(InputProperty(rawValue: UInt16(property)))
                }
            } else if yaml.scalarString == LibinputRecordWriter.statesKey {
                try yaml.next()
                try parseStates(yaml, leds: &ledStates, switches: &switchStates)
            } else {
                try yaml.next()
                try yaml.skipNode()
            }
        }
        guard let name, let id else {
            throw RecordingError(path: yaml.path, line: startLine, kind: .missingDescription,
                                 expected: "'name:' and 'id:' in 'evdev:'",
                                 found: name == nil ? "no 'name:'" : "no 'id:'")
        }
        let device = DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo,
                                       ledStates: ledStates, switchStates: switchStates)
        return (device, DescriptionLimits.warnings(checked: warnings, codes: codes[.abs] ?? [], absInfo: absInfo,
                                                   path: yaml.path, listedAt: axisListedAt))
    }

    /// `pinchlab-states: {leds: {<code>: <state>}, switches: {<code>: <state>}}`. A state of 0 is
    /// what a missing entry means, so it is not stored (as the evemu reader does).
    private static func parseStates(_ yaml: YAMLEventReader, leds: inout [EventCode: Int32],
                                    switches: inout [EventCode: Int32]) throws {
        let grammar = "a mapping of '\(LibinputRecordWriter.ledStatesKey)' and '\(LibinputRecordWriter.switchStatesKey)'"
        guard yaml.kind == .mappingStart else { throw error(yaml, grammar) }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd { return }
            guard yaml.kind == .scalar else { throw error(yaml, grammar) }
            let type: EventType
            switch yaml.scalarString {
            case LibinputRecordWriter.ledStatesKey: type = .led
            case LibinputRecordWriter.switchStatesKey: type = .sw
            default:
                try yaml.next()
                try yaml.skipNode()
                continue
            }
            try yaml.next()
            try forEachEntry(yaml, "a mapping of '<code>: <state>'") { code in
                let line = yaml.line
                guard let state = yaml.scalarInteger, state >= Int64(Int32.min), state <= Int64(Int32.max) else {
                    throw error(yaml, "a 32-bit state after '\(code):'")
                }
                guard code >= 0, EvdevTables.isKnown(type: UInt32(type.rawValue), code: UInt32(clamping: code)) else {
                    throw unknownEventCodeError(path: yaml.path, line: line, type: UInt32(type.rawValue),
                                                code: UInt32(clamping: code), context: "'\(LibinputRecordWriter.statesKey):'")
                }
                if state != 0 {
                    if type == .led { leds[EventCode(rawValue: UInt16(code))] = Int32(state) } else {
                        switches[EventCode(rawValue: UInt16(code))] = Int32(state)
                    }
                }
            }
        }
    }

    private static func error(_ yaml: YAMLEventReader, _ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine, expected: expected,
                       found: yaml.foundDescription)
    }

    /// A flow or block list of integers; the current event is its start.
    private static func integers(_ yaml: YAMLEventReader, count: Int?, grammar: String) throws -> [Int64] {
        guard yaml.kind == .sequenceStart else { throw error(yaml, grammar) }
        var values = [Int64]()
        while true {
            try yaml.next()
            if yaml.kind == .sequenceEnd { break }
            guard let value = yaml.scalarInteger else { throw error(yaml, grammar) }
            values.append(value)
        }
        if let count, values.count != count {
            throw RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine, expected: grammar,
                                 found: "\(values.count) numbers")
        }
        return values
    }

    /// Calls `body` with each integer key of a mapping, positioned on the key's value.
    private static func forEachEntry(_ yaml: YAMLEventReader, _ expected: String, _ body: (Int64) throws -> Void) throws {
        guard yaml.kind == .mappingStart else { throw error(yaml, expected) }
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd { return }
            guard let key = yaml.scalarInteger else { throw error(yaml, expected) }
            try yaml.next()
            try body(key)
        }
    }
}
