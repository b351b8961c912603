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

/// Reads a `libinput record` YAML file (version 1) as a stream of one device's evdev events.
///
/// Built on libyaml's event parser: events are handed out as they are parsed, memory does not
/// grow with the file. Unknown keys, `hid`, `udev`, `quirks`, and `- hid:` / `- libinput:` event
/// entries are skipped. Events after the last `SYN_REPORT` are returned too, and reported in
/// `trailingPartialFrame`.
public final class LibinputRecordReader: RecordingSource {
    public let device: DeviceDescription
    public private(set) var trailingPartialFrame: TrailingPartialFrame?
    /// The device's `node:`, if the file gives one.
    public let node: String?
    /// The device's 0-based position in `devices:`.
    public let deviceIndex: Int

    /// The only `version:` this reader knows (`FILE_VERSION_NUMBER` in libinput-record.c).
    public static let supportedVersion: Int64 = 1
    static let eventGrammar = "'[<sec>, <usec>, <type>, <code>, <value>]'"
    static let microsecondsPerSecond: Int64 = 1_000_000

    private enum State { case eventsList, eventItem, frame, finished }
    private let yaml: YAMLEventReader
    private var state: State
    private var previousTime = EventTime(seconds: .min, microseconds: 0)
    private var frameBoundaries = FrameBoundaryTracker()

    public init(path: String, selecting selector: RecordingDeviceSelector = .firstTouchDevice) throws {
        var located = try LibinputRecordReader.locate(path: path, selector: selector)
        if located == nil, selector == .firstTouchDevice {
            located = try LibinputRecordReader.locate(path: path, selector: .index(0))
        }
        guard let located else {
            let wanted: String
            switch selector {
            case .firstTouchDevice: wanted = "at least one device"
            case .index(let index): wanted = "a device at index \(index)"
            case .node(let node): wanted = "a device with node \(node)"
            }
            throw RecordingError(path: path, line: 0, kind: .noSuchDevice, expected: wanted,
                                 found: "no such device in 'devices:'")
        }
        yaml = located.yaml
        device = located.device
        node = located.node
        deviceIndex = located.index
        state = located.hasEvents ? .eventsList : .finished
    }

    public func nextEvent() throws -> InputEvent? {
        while true {
            switch state {
            case .finished:
                return nil
            case .eventsList:
                try yaml.next()
                switch yaml.kind {
                case .sequenceEnd:
                    state = .finished
                    trailingPartialFrame = frameBoundaries.trailingPartialFrame(path: yaml.path)
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
                return try parseEvent()
            }
        }
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
        guard EvdevTables.isKnown(type: UInt32(type), code: UInt32(code)) else {
            throw unknownEventCodeError(path: yaml.path, line: line, type: UInt32(type), code: UInt32(code),
                                        context: "[\(seconds), \(microseconds), \(type), \(code), \(value)]")
        }
        let time = EventTime(seconds: seconds, microseconds: Int32(microseconds))
        guard time >= previousTime else {
            throw RecordingError(path: yaml.path, line: line, kind: .timeWentBackwards,
                                 expected: "a time at or after \(previousTime)", found: "\(time)")
        }
        previousTime = time
        let event = InputEvent(time: time, type: EventType(rawValue: UInt16(type)), code: EventCode(rawValue: UInt16(code)),
                               value: Int32(value))
        frameBoundaries.note(event, line: line)
        return event
    }

    private func malformed(_ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine, expected: expected,
                       found: yaml.foundDescription)
    }

    // MARK: Finding the device

    private struct Located {
        var yaml: YAMLEventReader
        var device: DeviceDescription
        var node: String?
        var index: Int
        var hasEvents: Bool
    }

    private static func notARecord(_ yaml: YAMLEventReader, _ expected: String) -> RecordingError {
        RecordingError(path: yaml.path, line: max(1, yaml.line), kind: .notALibinputRecord,
                       expected: expected, found: yaml.foundDescription)
    }

    /// Reads up to the selected device's `events:` list; nil when no device matches.
    private static func locate(path: String, selector: RecordingDeviceSelector) throws -> Located? {
        let yaml = try YAMLEventReader(path: path)
        try yaml.next()
        try yaml.next()
        if yaml.kind == .streamEnd {
            throw RecordingError(path: path, line: 1, kind: .emptyFile,
                                 expected: "a libinput record file ('version: 1')", found: "an empty file")
        }
        try yaml.next()
        let topLevel = "a libinput record file (a YAML mapping with 'version: 1' and 'devices:')"
        guard yaml.kind == .mappingStart else { throw notARecord(yaml, topLevel) }
        var sawVersion = false
        while true {
            try yaml.next()
            if yaml.kind == .mappingEnd {
                throw notARecord(yaml, sawVersion ? "a 'devices:' list" : topLevel)
            }
            guard yaml.kind == .scalar else { throw notARecord(yaml, topLevel) }
            if yaml.scalarIs("version") {
                try yaml.next()
                guard let version = yaml.scalarInteger else { throw notARecord(yaml, "'version: 1'") }
                guard version == supportedVersion else {
                    throw RecordingError(path: path, line: yaml.line, kind: .unsupportedVersion,
                                         expected: "libinput record 'version: 1'", found: "'version: \(version)'")
                }
                sawVersion = true
            } else if yaml.scalarIs("devices") {
                guard sawVersion else { throw notARecord(yaml, "'version: 1' before 'devices:'") }
                try yaml.next()
                guard yaml.kind == .sequenceStart else { throw notARecord(yaml, "a list of devices after 'devices:'") }
                return try locateDevice(yaml, selector: selector)
            } else {
                try yaml.next()
                try yaml.skipNode()
            }
        }
    }

    private static func locateDevice(_ yaml: YAMLEventReader, selector: RecordingDeviceSelector) throws -> Located? {
        var index = 0
        while true {
            try yaml.next()
            if yaml.kind == .sequenceEnd { return nil }
            guard yaml.kind == .mappingStart else {
                throw RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine,
                                     expected: "a device ('- node: ...')", found: yaml.foundDescription)
            }
            var node: String?
            var device: DeviceDescription?
            func isSelected(_ device: DeviceDescription) -> Bool {
                switch selector {
                case .firstTouchDevice: return device.deviceClass != .other
                case .index(let wanted): return index == wanted
                case .node(let wanted): return node == wanted
                }
            }
            deviceKeys: while true {
                try yaml.next()
                if yaml.kind == .mappingEnd {
                    guard let device else {
                        throw RecordingError(path: yaml.path, line: yaml.line, kind: .missingDescription,
                                             expected: "an 'evdev:' description in each device",
                                             found: "the end of the device")
                    }
                    if isSelected(device) {
                        return Located(yaml: yaml, device: device, node: node, index: index, hasEvents: false)
                    }
                    break deviceKeys
                }
                guard yaml.kind == .scalar else {
                    throw RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine,
                                         expected: "a key of the device", found: yaml.foundDescription)
                }
                if yaml.scalarIs("node") {
                    try yaml.next()
                    node = yaml.scalarString
                } else if yaml.scalarIs("evdev") {
                    try yaml.next()
                    device = try EvdevDescriptionParser.parse(yaml)
                } else if yaml.scalarIs("events") {
                    let keyLine = yaml.line
                    try yaml.next()
                    guard let device else {
                        throw RecordingError(path: yaml.path, line: keyLine, kind: .missingDescription,
                                             expected: "'evdev:' (the device description) before 'events:'",
                                             found: "'events:'")
                    }
                    guard isSelected(device) else {
                        try yaml.skipNode()
                        continue
                    }
                    if yaml.kind == .sequenceStart {
                        return Located(yaml: yaml, device: device, node: node, index: index, hasEvents: true)
                    }
                    guard yaml.isNull else {
                        throw RecordingError(path: yaml.path, line: yaml.line, kind: .malformedLine,
                                             expected: "a list after 'events:'", found: yaml.foundDescription)
                    }
                    return Located(yaml: yaml, device: device, node: node, index: index, hasEvents: false)
                } else {
                    try yaml.next()
                    try yaml.skipNode()
                }
            }
            index += 1
        }
    }
}

/// Reads a device's `evdev:` mapping: `name`, `id`, `codes`, `absinfo`, `properties`, and the LED
/// and switch states pinchlab's writer keeps under `pinchlab-states`. Other keys are skipped.
private enum EvdevDescriptionParser {
    static let absinfoGrammar = "'<code>: [<min>, <max>, <fuzz>, <flat>, <resolution>]'"

    static func parse(_ yaml: YAMLEventReader) throws -> DeviceDescription {
        guard yaml.kind == .mappingStart else { throw error(yaml, "a mapping after 'evdev:'") }
        let startLine = yaml.line
        var name: String?
        var id: InputID?
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        var properties = Set<InputProperty>()
        var ledStates: [EventCode: Int32] = [:]
        var switchStates: [EventCode: Int32] = [:]
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
                    absInfo[EventCode(rawValue: UInt16(code))] = AbsInfo(
                        minimum: Int32(numbers[0]), maximum: Int32(numbers[1]), fuzz: Int32(numbers[2]),
                        flat: Int32(numbers[3]), resolution: Int32(numbers[4]))
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
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo,
                                 ledStates: ledStates, switchStates: switchStates)
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
