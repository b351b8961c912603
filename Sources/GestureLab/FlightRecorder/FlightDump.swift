import Foundation
import GestureCore
import GestureKit
import InteractiveTransition

/// Why a dump was made.
package enum DumpTrigger: String, Sendable, CaseIterable {
    case signal = "SIGUSR1"
    case key = "the d key"
    case page = "the page's dump button"
    case cancelled = "an attempt that cancelled"
    case failed = "a gesture that failed"
    case release = "an attempt that ended"
}

/// `live --dump-on`: which moments write a dump by themselves.
package enum AutomaticDump: String, Sendable, CaseIterable {
    /// An attempt at the transition whose release cancelled it (when its completion ends).
    case cancelled
    /// A gesture the recognizer cancelled (a finger count change, a click, motion during a hold).
    case failed
    /// Every attempt, finished or cancelled, when its completion ends.
    case everyRelease = "every-release"

    /// Whether `record` is such a moment.
    package func isTriggered(by record: LabRecord) -> Bool {
        switch (self, record) {
        case (.cancelled, .transition(let t)): t.state == .cancelled
        case (.everyRelease, .transition(let t)): t.state == .cancelled || t.state == .finished
        case (.failed, .gesture(let g)): g.event.state == .cancelled
        default: false
        }
    }

    package var trigger: DumpTrigger {
        switch self {
        case .cancelled: .cancelled
        case .failed: .failed
        case .everyRelease: .release
        }
    }
}

/// A flight recorder's snapshot as a `libinput record` file: the window's whole frames with their
/// original times, after a first frame with the touches down at its start (as `record` begins a
/// recording made mid-gesture), keys masked as `libinput record` masks them, and under
/// `pinchlab:` what replays it as the session ran: the settings, the transition, where the window
/// sits in the session, the version, and the session's own lines for the window.
package struct FlightDump: Sendable {
    /// The names of the texts and lists under `pinchlab:`.
    package enum Key {
        package static let settings = "settings"
        package static let transition = "transition"
        package static let version = "version"
        package static let origin = "origin"
        package static let firstGesture = "first-gesture"
        static let firstTrial = "first-trial"
        package static let trigger = "dumped-on"
        package static let window = "window"
        package static let lines = "lines"
    }

    package var snapshot: FlightSnapshot
    package var node: String
    package var settings: LabSettings
    package var transition: TransitionName
    package var version: String
    package var trigger: DumpTrigger
    package var system: RecordingSystemInfo?

    package init(snapshot: FlightSnapshot, node: String, settings: LabSettings, transition: TransitionName,
                version: String, trigger: DumpTrigger, system: RecordingSystemInfo? = nil) {
        self.snapshot = snapshot
        self.node = node
        self.settings = settings
        self.transition = transition
        self.version = version
        self.trigger = trigger
        self.system = system
    }

    /// `pinchlab-YYYYMMDD-HHMMSS.yml` for `date` in local time.
    static func fileName(at date: Date, attempt: Int = 0) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
        return "pinchlab-\(stamp)" + (attempt > 0 ? "-\(attempt + 1)" : "") + ".yml"
    }

    /// Writes the dump into `directory` under a name no file has yet (`-2`, `-3`... after a
    /// second's first), staged and renamed: the file is whole or absent, whatever stops the write.
    /// Returns the path.
    package func write(inDirectory directory: String, at date: Date = Date()) throws -> String {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var path = base + Self.fileName(at: date)
        for attempt in 1..<100 where FileManager.default.fileExists(atPath: path) {
            path = base + Self.fileName(at: date, attempt: attempt)
        }
        let staged = try StagedOutputFile(destination: path)
        defer { staged.discard() }
        do {
            let writer = try LibinputRecordWriter(
                path: staged.stagingPath, device: snapshot.device, node: node,
                // Staged and made from memory: whole frames in 64 KiB writes, not one write a frame.
                options: RecordingWriterOptions(maskKeyboardKeys: true, systemInfo: system, writesEachFrame: false),
                extras: try extras())
            try writer.write(snapshot.window.stateAtStart)
            for event in snapshot.window.events {
                try writer.write(event)
                if event.isSynReport { try writer.flush() }
            }
            try writer.close()
        } catch var error as RecordingError where error.path == staged.stagingPath {
            error.path = path
            throw error
        }
        try staged.commit()
        return path
    }

    func extras() throws -> PinchlabExtras {
        let position = snapshot.position
        var texts = [
            Key.settings: String(decoding: try settings.settingsFileData(), as: UTF8.self),
            Key.transition: transition.rawValue,
            Key.version: version,
            Key.origin: "\(position.origin)",
            Key.firstGesture: "\(position.firstGesture)",
            Key.firstTrial: "\(position.firstTrial)",
            Key.trigger: trigger.rawValue,
        ]
        texts[Key.window] = "session seconds \(format(snapshot.windowStart)) to \(format(snapshot.windowEnd)), "
            + "\(snapshot.window.stateAtStart.touchCount) touches down at the start; --keep \(format(snapshot.seconds))"
            + (snapshot.isShort ? " (the device sent more events per second than the ring was sized for)" : "")
            + (snapshot.linesBeginLate.map { "; lines from \(format($0)) only" } ?? "")
        // The lines as `replay --json` prints them, each decision's with its margin.
        let margins = settings.recognizerConfiguration(for: snapshot.device).sanitized
        return PinchlabExtras(texts: texts, lists: [Key.lines: snapshot.lines.compactMap { $0.jsonLine(margins: margins) }])
    }

    private func format(_ seconds: Double) -> String { String(format: "%.6f", seconds) }
}

extension SessionPosition {
    /// The position a dump's `pinchlab:` texts give, nil when they give none (any recording not
    /// cut from a session) or when one is malformed.
    public init?(extras: PinchlabExtras) {
        guard let originText = extras.texts[FlightDump.Key.origin],
              let origin = EventTime(parsing: originText),
              let gesture = extras.texts[FlightDump.Key.firstGesture].flatMap({ Int($0) }), gesture >= 0,
              let trial = extras.texts[FlightDump.Key.firstTrial].flatMap({ Int($0) }), trial >= 0 else { return nil }
        self.init(origin: origin, firstGesture: gesture, firstTrial: trial)
    }
}

extension EventTime {
    /// `SECONDS.MICROSECONDS` as `description` prints it (`12.000345`).
    init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let seconds = Int64(parts[0]), seconds >= 0,
              let micros = Int32(parts[1]), micros >= 0 else { return nil }
        self.init(seconds: seconds, microseconds: micros)
    }
}
