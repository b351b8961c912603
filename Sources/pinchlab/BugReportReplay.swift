import Foundation
import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition
import LabReports

/// `report`'s summary.txt and replay.jsonl, each written to its temporary file as the records come:
/// the JSON lines are `replay --json`'s bytes, the human lines `replay --explain`'s, both gathered in
/// a reused 64 KiB buffer (`BufferedLines`), so no record makes a string of its own but the
/// sentences it is explained by.
final class ExplainedLines {
    let summaryFile: TemporaryFile
    let replayFile: TemporaryFile
    private let summary: BufferedFileWriter
    private let replay: BufferedFileWriter
    private let summaryLines: BufferedLines
    private let replayLines: BufferedLines
    private var human = HumanOutput()
    /// The first failed write; the records after it are not written.
    private(set) var failure: (any Error)?

    /// Opens both files and writes `facts` and the explanation's heading.
    init(facts: [String], name: String, margins: GestureRecognizerConfiguration) throws {
        summaryFile = try TemporaryFile(prefix: "pinchlab-report", suffix: ".txt")
        replayFile = try TemporaryFile(prefix: "pinchlab-report", suffix: ".jsonl")
        summary = try BufferedFileWriter(path: summaryFile.path)
        replay = try BufferedFileWriter(path: replayFile.path)
        summaryLines = BufferedLines(eachLine: false, sink: .file(summary))
        replayLines = BufferedLines(eachLine: false, margins: margins, sink: .file(replay))
        human.explains = true
        human.margins = margins
        for line in facts + ["", "What pinchlab decided (pinchlab replay \(name) --explain):"] { try summaryLines.line(line) }
    }

    /// One record of the replay. Frames say nothing in either file, and are passed over before the
    /// explanation sees them: a release's end line waits for the margins record that follows it.
    func consume(_ record: LabRecord) {
        guard failure == nil else { return }
        if case .frame = record { return }
        do {
            try replayLines.write(record)
            for line in human.lines(for: record) { try summaryLines.line(line) }
        } catch {
            failure = error
        }
    }

    /// Ends both files with `result`'s summary (its JSON line as `replay --json` prints it) and
    /// libinput's `verdict`; throws the first failed write.
    func finish(_ result: LabSummary, verdict: [String]) throws {
        if let failure { throw failure }
        try replayLines.write(result)
        for line in HumanOutput.summary(result) + (verdict.isEmpty ? [] : ["", "libinput's verdict:"] + verdict) {
            try summaryLines.line(line)
        }
        try summaryLines.flush()
        try replayLines.flush()
        try summary.close()
        try replay.close()
    }
}

extension BugReport {
    /// The parts made by replaying the copy: the explanation and the JSON log, the plot, the page.
    struct ReplayedParts {
        var summary: TemporaryFile
        var replay: TemporaryFile
        var plot: Data
        var page: TemporaryFile
    }

    /// One replay of the copy (`ViewerReplay`, its records tapped) makes the page, the plot, the
    /// explanation and the JSON log. A live dump's explanation is numbered and timed as the live
    /// session was (`position`, as `replay` says it), its page and plot as `view` and `plot` show
    /// the dump: it is explained in a replay of its own.
    static func replayedParts(of copy: TemporaryFile, name: String, title: String, transition: TransitionName,
                              settings: LabSettings, policyName: String, position: SessionPosition?,
                              facts: [String], verdict: [String]) throws -> ReplayedParts {
        var source = try reopen(copy)
        let device = source.device
        var viewer = try ViewerReplay(device: device, transition: transition, settings: settings)
        let margins = viewer.recognizerConfiguration
        let explained = try ExplainedLines(facts: facts, name: name, margins: margins)
        var plot = TimelineRecorder(title: title, device: device, transition: transition, policy: settings.policy, settings: settings)
        let explainsHere = position == nil
        let (document, result) = viewer.run(&source, title: title, source: name, policyName: policyName) { record in
            plot.record(record)
            if explainsHere { explained.consume(record) }
        }
        if let error = result.error { throw error }
        if explainsHere {
            try explained.finish(result.summary, verdict: verdict)
        } else {
            try explain(copy, into: explained, name: name, transition: transition, settings: settings, position: position,
                        verdict: verdict)
        }
        let svg = Data(try TimelinePlot.svg(plot.timeline(summary: result.summary), window: PlotWindow()).utf8)
        let page = try TemporaryFile(prefix: "pinchlab-report", suffix: ".html")
        let pageWriter = try BufferedFileWriter(path: page.path)
        try ViewerPage.write(document) { try pageWriter.write($0) }
        try pageWriter.close()
        return ReplayedParts(summary: explained.summaryFile, replay: explained.replayFile, plot: svg, page: page)
    }

    /// A replay of the copy from `position` in its live session, explained into `explained`.
    private static func explain(_ copy: TemporaryFile, into explained: ExplainedLines, name: String, transition: TransitionName,
                                settings: LabSettings, position: SessionPosition?, verdict: [String]) throws {
        var source = try reopen(copy)
        var run = try ReplayRun(device: source.device, transition: transition, settings: settings,
                                recordsStateChanges: true, position: position)
        run.measuresMargins = true   // as replay --json's summary and --explain
        let result = run.run(&source, name: name) { explained.consume($0) }
        if let error = result.error { throw error }
        try explained.finish(result.summary, verdict: verdict)
    }
}
