import GestureCore

/// An event that contradicts the recording's own device description, noted once per kind with
/// the first line where it happened and how many times.
///
/// A kernel never sends an event for a code the device does not announce (`input_handle_event`
/// drops them), nor a slot beyond its slot axis, so such events mean the description or the events
/// were edited, or come from another device. The readers still return them (a conversion keeps
/// every event); what reads the events for gestures follows libevdev, which discards events for
/// codes the device lacks: `TouchFrameAssembler` ignores them, and events for a slot outside the
/// slot axis are ignored until a slot inside it is selected.
public struct EventContradiction: Hashable, Sendable, CustomStringConvertible {
    /// The ways an event can contradict the description.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `ABS_MT_TRACKING_ID` on a device whose description has no tracking ids.
        case trackingIDWithoutAxis
        /// An `EV_ABS` event for an axis the description does not list (`ABS_MT_SLOT` on a device
        /// without slots, `ABS_X` on one without it).
        case axisNotDescribed
        /// `ABS_MT_SLOT` selecting a slot outside the slot axis's range.
        case slotBeyondAxis
        /// An event of another type (a key, a switch) whose code the description does not list.
        case codeNotDescribed
        /// A position (`ABS_X`, `ABS_Y`, `ABS_MT_POSITION_X`/`Y`) outside its axis's range: the
        /// kernel does not clamp, so a driver that declares the wrong range sends them (a legacy
        /// Synaptics declaring 1472...5472 and sending 968...8176).
        case positionOutsideRange
    }

    /// Which contradiction this is.
    public var kind: Kind
    /// The file the events are in.
    public var path: String
    /// Where it first happened.
    public var firstLine: Int
    /// The first such event.
    public var firstEvent: InputEvent
    /// How many events of this kind the recording has.
    public var count: Int
    /// For `.slotBeyondAxis`: the slot axis's range.
    public var slotRange: ClosedRange<Int32>?
    /// For `.positionOutsideRange`: each position axis that went outside its range, with the range
    /// declared and the range of all its values seen.
    public var positionRanges: [PositionRangeSeen] = []

    /// A position axis's declared range and the values it took.
    public struct PositionRangeSeen: Hashable, Sendable {
        /// The axis.
        public var axis: EventCode
        /// The range the description declares.
        public var declared: ClosedRange<Int32>
        /// The range of the values the events took.
        public var seen: ClosedRange<Int32>
    }

    /// What happened, with the first place: `FILE:LINE: ABS_MT_SLOT 7, beyond the description's
    /// slot axis (0...4) (3 events)`.
    public var description: String {
        let place = firstLine > 0 ? "\(path):\(firstLine)" : path
        let type = firstEvent.type, code = firstEvent.code
        let codeName = code.name(for: type) ?? "\(type) code 0x\(String(code.rawValue, radix: 16))"
        let times = count == 1 ? "1 event" : "\(count) events"
        switch kind {
        case .trackingIDWithoutAxis:
            return "\(place): ABS_MT_TRACKING_ID (value \(firstEvent.value)), but the description has no ABS_MT_TRACKING_ID axis (\(times))"
        case .axisNotDescribed:
            return "\(place): \(codeName) (value \(firstEvent.value)), but the description has no \(codeName) axis "
                + "(\(times) for axes it lacks)"
        case .slotBeyondAxis:
            let range = slotRange.map { " (\($0.lowerBound)...\($0.upperBound))" } ?? ""
            return "\(place): ABS_MT_SLOT (value \(firstEvent.value)), beyond the description's slot axis\(range) (\(times))"
        case .codeNotDescribed:
            return "\(place): \(codeName) (value \(firstEvent.value)), but the description does not list \(codeName) "
                + "(\(times) for codes it lacks)"
        case .positionOutsideRange:
            let ranges = positionRanges.map {
                "\($0.axis.name(for: .abs) ?? "axis"): \($0.seen.lowerBound)...\($0.seen.upperBound) seen, "
                    + "\($0.declared.lowerBound)...\($0.declared.upperBound) declared"
            }.joined(separator: "; ")
            let positions = count == 1 ? "1 position" : "\(count) positions"
            return "\(place): \(codeName) \(firstEvent.value) is outside the range the description declares "
                + "(\(positions) outside; \(ranges))"
        }
    }

    /// What reading the events for gestures does with them (`TouchFrameAssembler`).
    public var rule: String {
        switch kind {
        case .trackingIDWithoutAxis, .axisNotDescribed, .codeNotDescribed:
            return "ignored, as libevdev discards events for codes a device does not have"
        case .slotBeyondAxis:
            return "that slot's events are ignored until a slot on the axis is selected"
        case .positionOutsideRange:
            return "read as given, beyond the surface's edges (its size comes from the declared range)"
        }
    }
}

/// Follows a reader's events against its description: a bit test per event, nothing allocated
/// after the first contradiction of each kind.
struct DescriptionConformance {
    private let path: String
    /// One bit per code the description lists (EV_SYN: every code), the types one after another:
    /// type T's codes start at word `firstWord[T]`.
    private var bits: [UInt64] = []
    private var firstWord: [Int] = []
    private let slotRange: ClosedRange<Int32>?
    private var found: [EventContradiction?] = Array(repeating: nil, count: EventContradiction.Kind.allCases.count)
    /// ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y: declared ranges and what was seen.
    private var positions = InlineArray<4, PositionWatch>(repeating: PositionWatch())

    /// One position axis followed: a few integer updates per event.
    private struct PositionWatch {
        var isDeclared = false
        var minimum = Int32.min, maximum = Int32.max  // an axis without a range: nothing is outside it
        var seenMinimum = Int32.max, seenMaximum = Int32.min
        var outside = 0
        var firstLine = 0
        var firstEvent: InputEvent?
    }

    /// The index in `positions` of a position axis, nil for any other code.
    @inline(__always)
    private static func positionIndex(_ code: EventCode) -> Int? {
        switch code {
        case .absX: 0
        case .absY: 1
        case .absMTPositionX: 2
        case .absMTPositionY: 3
        default: nil
        }
    }

    init(device: DeviceDescription, path: String) {
        self.path = path
        for rawType in 0..<EventType.count {
            firstWord.append(bits.count)
            let words = (Int(EventType(rawValue: UInt16(rawType)).maxCode ?? 0) + 64) / 64
            bits += Array(repeating: rawType == Int(EventType.syn.rawValue) ? ~0 : 0, count: words)
        }
        firstWord.append(bits.count)
        // An axis is there when it has a range: one listed without is read as missing.
        var listed = device.codes
        listed[.abs] = Set(device.absInfo.keys)
        for (type, codes) in listed where Int(type.rawValue) < EventType.count {
            for code in codes {
                let word = firstWord[Int(type.rawValue)] + Int(code.rawValue) / 64
                if word < firstWord[Int(type.rawValue) + 1] { bits[word] |= 1 << UInt64(code.rawValue % 64) }
            }
        }
        for code in [EventCode.absX, .absY, .absMTPositionX, .absMTPositionY] {
            guard let info = device.absInfo[code], let index = Self.positionIndex(code) else { continue }
            positions[index].isDeclared = true
            positions[index].minimum = info.minimum
            positions[index].maximum = info.maximum
        }
        if let slot = device.absInfo[.absMTSlot], device.firstSlot <= Int(slot.maximum) {
            slotRange = Int32(device.firstSlot)...slot.maximum
        } else {
            slotRange = nil
        }
    }

    @inline(__always)
    mutating func note(_ event: InputEvent, line: Int) {
        let type = Int(event.type.rawValue), code = Int(event.code.rawValue)
        var isDescribed = false
        if type < EventType.count {
            let word = firstWord[type] + code / 64
            isDescribed = word < firstWord[type + 1] && bits[word] & (1 << UInt64(code % 64)) != 0
        }
        if !isDescribed {
            let kind: EventContradiction.Kind
            if event.type == .abs {
                kind = event.code == .absMTTrackingID ? .trackingIDWithoutAxis : .axisNotDescribed
            } else {
                kind = .codeNotDescribed
            }
            record(kind, event, line)
        } else if event.type == .abs {
            if event.code == .absMTSlot, let slotRange, !slotRange.contains(event.value) {
                record(.slotBeyondAxis, event, line)
            } else if let index = Self.positionIndex(event.code) {
                notePosition(index, event, line)
            }
        }
    }

    /// Field by field in place, the rare value outside the range apart: a copy of the watch in and
    /// out per position event cost more than the rest of the event's checks.
    @inline(__always)
    private mutating func notePosition(_ index: Int, _ event: InputEvent, _ line: Int) {
        let value = event.value
        if value < positions[index].seenMinimum { positions[index].seenMinimum = value }
        if value > positions[index].seenMaximum { positions[index].seenMaximum = value }
        if value < positions[index].minimum || value > positions[index].maximum {
            noteOutside(index, event, line)
        }
    }

    @inline(never)
    private mutating func noteOutside(_ index: Int, _ event: InputEvent, _ line: Int) {
        guard positions[index].isDeclared else { return }
        if positions[index].outside == 0 {
            positions[index].firstLine = line
            positions[index].firstEvent = event
        }
        positions[index].outside += 1
    }

    /// The positions outside their ranges, all axes in one entry (its first place the earliest).
    private var positionsOutsideRange: EventContradiction? {
        var result: EventContradiction?
        for index in 0..<4 where positions[index].outside > 0 {
            let watch = positions[index]
            guard let event = watch.firstEvent else { continue }
            let range = EventContradiction.PositionRangeSeen(axis: event.code, declared: watch.minimum...watch.maximum,
                                                             seen: watch.seenMinimum...watch.seenMaximum)
            if result == nil || watch.firstLine < result!.firstLine {
                let previous = result
                result = EventContradiction(kind: .positionOutsideRange, path: path, firstLine: watch.firstLine,
                                            firstEvent: event, count: watch.outside + (previous?.count ?? 0))
                result!.positionRanges = (previous?.positionRanges ?? []) + [range]
            } else {
                result!.count += watch.outside
                result!.positionRanges.append(range)
            }
        }
        result?.positionRanges.sort { $0.axis < $1.axis }
        return result
    }

    private mutating func record(_ kind: EventContradiction.Kind, _ event: InputEvent, _ line: Int) {
        let index = EventContradiction.Kind.allCases.firstIndex(of: kind)!
        if found[index] != nil {
            found[index]!.count += 1
        } else {
            found[index] = EventContradiction(kind: kind, path: path, firstLine: line, firstEvent: event, count: 1,
                                              slotRange: kind == .slotBeyondAxis ? slotRange : nil)
        }
    }

    /// Every kind met so far, in the order of their first lines.
    var contradictions: [EventContradiction] {
        (found.compactMap { $0 } + (positionsOutsideRange.map { [$0] } ?? [])).sorted { $0.firstLine < $1.firstLine }
    }
}
