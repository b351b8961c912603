import GestureCore

/// Events at the end of a recording that no `SYN_REPORT` closes.
///
/// A frame is complete only at its `SYN_REPORT`; the events after the last one are a frame the
/// device never finished (`evemu-record` killed mid-frame, a file cut at a line boundary). They are
/// not a frame, and a reader must not let them pass as one: it still returns them (a conversion
/// keeps every event), and says so here, with the place, so the caller can warn.
public struct TrailingPartialFrame: Sendable, Hashable, CustomStringConvertible {
    /// The file the events are in (the `.events` half of a split evemu recording).
    public var path: String
    /// The line of the last `SYN_REPORT`; 0 when the recording has none at all.
    public var lastSynReportLine: Int
    /// The line of the last event.
    public var lastEventLine: Int
    /// How many events come after the last `SYN_REPORT`.
    public var eventCount: Int
    /// In a multi-device `libinput record`, the index of the device whose events these are when
    /// it is not the device being read (`LibinputRecordReader.otherDevicesEndingInsideFrame`).
    public var otherDeviceIndex: Int?

    /// A partial frame from its place and size.
    public init(path: String, lastSynReportLine: Int, lastEventLine: Int, eventCount: Int, otherDeviceIndex: Int? = nil) {
        self.path = path
        self.lastSynReportLine = lastSynReportLine
        self.lastEventLine = lastEventLine
        self.eventCount = eventCount
        self.otherDeviceIndex = otherDeviceIndex
    }

    /// `<path> ends inside a frame after line N: K events after the last SYN_REPORT`; a caller adds
    /// what it did with them ("ignored", "kept").
    /// For another device: `<path>: device N ends inside a frame after line ...`.
    public var description: String {
        let events = eventCount == 1 ? "1 event" : "\(eventCount) events"
        let subject = otherDeviceIndex.map { "\(path): device \($0)" } ?? path
        guard lastSynReportLine > 0 else {
            return "\(subject) ends inside its first frame: \(events) up to line \(lastEventLine) and no SYN_REPORT"
        }
        return "\(subject) ends inside a frame after line \(lastSynReportLine): \(events) after the last SYN_REPORT"
    }
}

/// An event source read from a recording file, which can say whether the file ended mid-frame.
/// A class: a command reads its events through an `any InputEventSource` and then asks the same
/// reader what it found (typed, so no dynamic cast, which costs a scan of the binary's 9,400 protocol
/// conformances at start-up).
public protocol RecordingSource: InputEventSource, AnyObject {
    /// Set once `nextEvent()` has returned nil, when events follow the last `SYN_REPORT`;
    /// nil while reading and for a recording that ends on a `SYN_REPORT` (or has no events).
    var trailingPartialFrame: TrailingPartialFrame? { get }
    /// Problems of the description that did not stop reading, each with its line and what pinchlab
    /// does about it (`DescriptionLimits`); known once the reader is made.
    var descriptionWarnings: [DescriptionWarning] { get }
    /// Events that contradict the description, one entry per kind with its first line and count;
    /// complete once `nextEvent()` has returned nil.
    var eventContradictions: [EventContradiction] { get }
    /// Event lines that begin with blank space, passed over as libevemu does (evemu files only);
    /// complete once `nextEvent()` has returned nil.
    var indentedEventLines: IndentedEventLines? { get }
}

extension RecordingSource {
    /// None: only evemu files have them.
    public var indentedEventLines: IndentedEventLines? { nil }
}

/// Follows frame boundaries while a reader hands out events: where the last `SYN_REPORT` was and
/// how many events came since. A few integer updates per event; nothing is kept.
struct FrameBoundaryTracker {
    private var lastSynReportLine = 0
    private var lastEventLine = 0
    private var eventsSinceSynReport = 0

    @inline(__always)
    mutating func note(_ event: InputEvent, line: Int) {
        note(isSynReport: event.isSynReport, line: line)
    }

    @inline(__always)
    mutating func note(isSynReport: Bool, line: Int) {
        lastEventLine = line
        if isSynReport {
            lastSynReportLine = line
            eventsSinceSynReport = 0
        } else {
            eventsSinceSynReport += 1
        }
    }

    /// What is left open at the end of the stream, nil when the stream ended on a frame boundary.
    func trailingPartialFrame(path: String) -> TrailingPartialFrame? {
        guard eventsSinceSynReport > 0 else { return nil }
        return TrailingPartialFrame(path: path, lastSynReportLine: lastSynReportLine,
                                    lastEventLine: lastEventLine, eventCount: eventsSinceSynReport)
    }
}
