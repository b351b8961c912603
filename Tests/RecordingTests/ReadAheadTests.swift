import Foundation
import Testing
@testable import GestureCore
@testable import GestureKit
import PinchlabTestSupport

/// Reading a file ahead on another thread (`ReadAhead`) must change nothing a reader tells: the
/// same events, the same error on the same line, the same warnings and partial frame, whatever
/// the chunk boundaries cut.
@Suite struct ReadAheadTests {
    /// What an evemu reader tells about a file, read to its end or its error.
    struct Outcome: Equatable {
        var events: [InputEvent] = []
        var error: String?
        var contradictions: [String] = []
        var warnings: [String] = []
        var indentedLines: String?
        var trailingPartialFrame: TrailingPartialFrame?
        var readAheadStarted = false
        var linesParsedAhead = 0

        /// How the events are taken from the source.
        enum Taking: CaseIterable {
            /// `nextEvent()` for each.
            case oneByOne
            /// `nextEvents`, as `ReplayRun` takes them: a batch (the rest of one) per call.
            case inBatches
            /// `nextEvent()` then `nextEvents`, in turn: each batch's rest starts anywhere.
            case inTurn
        }

        /// - Parameters:
        ///   - eventBatch: the reader runs on another thread (`EventReadAhead`), reading its lines
        ///     itself, as replay reads, and hands over batches of this many events.
        ///   - taking: how they are taken.
        init(path: String, eventsPath: String? = nil, bufferBytes: Int, readsAhead: Bool, eventBatch: Int? = nil,
             taking: Taking = .oneByOne) {
            do {
                let reader = try EvemuReader(path: path, eventsPath: eventsPath, readsLinesInOneScan: true,
                                             bufferBytes: bufferBytes, readAheadMinimumFileBytes: readsAhead ? 0 : .max,
                                             readAhead: eventBatch == nil ? .lines : .events)
                warnings = reader.descriptionWarnings.map { "\($0)" }
                let eventsAhead = eventBatch.flatMap { EventReadAhead.reading(reader, batchEvents: $0) }
                defer {
                    eventsAhead?.stop()
                    contradictions = reader.eventContradictions.map { "\($0)" }
                    indentedLines = reader.indentedEventLines.map { "\($0)" }
                    trailingPartialFrame = reader.trailingPartialFrame
                }
                var source: any InputEventSource = reader
                if let eventsAhead {
                    source = eventsAhead
                    readAheadStarted = true  // the reader is the other thread's until stop()
                }
                var single = taking != .inBatches
                while true {
                    if single {
                        guard let event = try source.nextEvent() else { break }
                        events.append(event)
                    } else {
                        let took = try source.nextEvents { batch in
                            for index in batch.indices { events.append(batch[index]) }
                            return true
                        }
                        guard took == true else { break }
                    }
                    if taking == .inTurn { single.toggle() }
                    if eventsAhead == nil { readAheadStarted = readAheadStarted || reader.readsAhead }
                }
                eventsAhead?.stop()
                linesParsedAhead = reader.linesParsedAhead
            } catch {
                self.error = "\(error)"
            }
        }

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.events == b.events && a.error == b.error && a.contradictions == b.contradictions && a.warnings == b.warnings
                && a.indentedLines == b.indentedLines && a.trailingPartialFrame == b.trailingPartialFrame
        }
    }

    func expectSameReading(_ path: String, eventsPath: String? = nil, _ what: String, buffers: [Int] = [97, 512, 4_096]) {
        for bufferBytes in buffers {
            let onThisThread = Outcome(path: path, eventsPath: eventsPath, bufferBytes: bufferBytes, readsAhead: false)
            let readAhead = Outcome(path: path, eventsPath: eventsPath, bufferBytes: bufferBytes, readsAhead: true)
            let same = readAhead == onThisThread  // not in #expect, which would print every event
            #expect(same, "\(what), buffer \(bufferBytes): \(readAhead.error ?? "no error") vs \(onThisThread.error ?? "no error")")
            #expect(readAhead.readAheadStarted, "\(what), buffer \(bufferBytes): read ahead")
            #expect(!onThisThread.readAheadStarted)
            // Events read on another thread (a split recording's too: its `.events` half decides), in
            // batches that end anywhere, errors at any place in one.
            for batch in [1, 7, 64] {
                for taking in Outcome.Taking.allCases {
                    let eventsAhead = Outcome(path: path, eventsPath: eventsPath, bufferBytes: bufferBytes, readsAhead: true,
                                              eventBatch: batch, taking: taking)
                    let same = eventsAhead == onThisThread
                    #expect(same, "\(what), buffer \(bufferBytes), event batches of \(batch) taken \(taking): \(eventsAhead.error ?? "no error")")
                    #expect(eventsAhead.readAheadStarted, "\(what), buffer \(bufferBytes): events read on the other thread")
                }
            }
            // One reader on this thread, taken in batches (of one: `nextEvents`' default).
            let inBatches = Outcome(path: path, eventsPath: eventsPath, bufferBytes: bufferBytes, readsAhead: false,
                                    taking: .inBatches)
            let sameInBatches = inBatches == onThisThread
            #expect(sameInBatches, "\(what), buffer \(bufferBytes), taken by nextEvents on this thread")
        }
    }

    @Test func readsTheSameEventsAndErrors() throws {
        let (description, lines) = try Fixtures.mixedEvemuLines()
        let directory = makeTemporaryDirectory()
        let whole = description + "\n" + lines.joined(separator: "\n")  // no newline after the last
        writeFile(directory + "/whole.evemu", whole)
        expectSameReading(directory + "/whole.evemu", "whole")
        let reference = Outcome(path: directory + "/whole.evemu", bufferBytes: 4_096, readsAhead: false)
        #expect(reference.error == nil && reference.events.count == lines.filter { $0.hasPrefix("E:") }.count)
        #expect(reference.indentedLines != nil, "the indented lines are noted, on their line numbers")
        // The other thread read lines' fields (at least its first share of every chunk), and this one took them.
        let readAhead = Outcome(path: directory + "/whole.evemu", bufferBytes: 4_096, readsAhead: true)
        #expect(readAhead.linesParsedAhead > 0 && reference.linesParsedAhead == 0, "\(readAhead.linesParsedAhead)")

        // Each error deep in the file, on a line the old reading names.
        // A NUL at 32 places in a row: some fall in the unfinished line moved to the next chunk.
        for shift in stride(from: 0, to: 96, by: 3) {
            var withNul = Array(whole.utf8)
            withNul[withNul.count * 2 / 3 + shift] = 0
            writeFile(directory + "/nul.evemu", withNul)
            expectSameReading(directory + "/nul.evemu", "NUL byte +\(shift)", buffers: [97])
            #expect(Outcome(path: directory + "/nul.evemu", bufferBytes: 97, readsAhead: true).error?.contains("NUL") == true)
        }

        let backwards = whole.replacingOccurrences(of: "E: 11.500000 0003 0035 ", with: "E: 09.500000 0003 0035 ")
        writeFile(directory + "/backwards.evemu", backwards)
        expectSameReading(directory + "/backwards.evemu", "time backwards")

        // A line longer than the buffer, beginning at many places in a chunk: the chunk after it
        // holds its newline, but it is still too long (a buffer and the chunk behind it hold more).
        for filler in stride(from: 0, to: 512, by: 37) {
            var long = lines
            long[1_000] = "#" + String(repeating: "y", count: filler)
            long[2_000] = "E: 11.700000 0003 0035 0001\t# " + String(repeating: "x", count: 600)
            writeFile(directory + "/long.evemu", description + "\n" + long.joined(separator: "\n") + "\n")
            expectSameReading(directory + "/long.evemu", "long line after \(filler)", buffers: [512])
            #expect(Outcome(path: directory + "/long.evemu", bufferBytes: 512, readsAhead: true).error?.contains("shorter than 512") == true,
                    "after \(filler)")
        }

        // A split recording: the description, then the events file read ahead.
        writeFile(directory + "/split.desc", description + "\n")
        writeFile(directory + "/split.events", lines.joined(separator: "\n") + "\n")
        expectSameReading(directory + "/split.desc", eventsPath: directory + "/split.events", "split")
    }

    /// Every evemu recording of Fixtures/, read ahead through a 4 KB buffer as if it were large: what
    /// the one-thread reading tells.
    @Test func everyRecordingReadsTheSameReadAhead() throws {
        let paths = Fixtures.recordings(extensions: [".evemu"])
        #expect(paths.count >= 52)
        let parsedAhead = Self.expectTheSameReadAhead(paths)
        #expect(parsedAhead > 10_000, "\(parsedAhead) lines parsed ahead")
    }

    /// The same on every evemu recording of ../shared/recordings (other people's hardware: protocol
    /// A, semi-MT, odd spacing, a few hundred KB, below the size that is read ahead).
    @Test(.needs(.sharedRecordings)) func everySharedRecordingReadsTheSameReadAhead() throws {
        let paths = Fixtures.sharedRecordings(extensions: [".evemu"])
        #expect(paths.count >= 42)
        let parsedAhead = Self.expectTheSameReadAhead(paths)
        #expect(parsedAhead > 10_000, "\(parsedAhead) lines parsed ahead")
    }

    /// Each of `paths` read ahead and on this thread; the number of lines parsed ahead in all.
    static func expectTheSameReadAhead(_ paths: [String]) -> Int {
        var parsedAhead = 0
        for path in paths {
            let onThisThread = Outcome(path: path, bufferBytes: 4_096, readsAhead: false)
            let readAhead = Outcome(path: path, bufferBytes: 4_096, readsAhead: true)
            let same = readAhead == onThisThread  // not in #expect, which would print every event
            #expect(same, "\(path): \(readAhead.error ?? "no error") vs \(onThisThread.error ?? "no error")")
            parsedAhead += readAhead.linesParsedAhead
        }
        return parsedAhead
    }

    /// With the defaults a file of 4 MiB or more is read ahead, its lines' fields read on the other
    /// thread (`ReadAheadCLITests` compares what the commands print with a pipe's).
    @Test func aLargeFileIsReadAheadByDefault() throws {
        let (description, lines) = try Fixtures.mixedEvemuLines()
        var text = description + "\n"
        var round = 0
        while text.utf8.count < 5 << 20 {
            // The same lines, later: time goes on from one round to the next.
            text += lines.map { $0.replacingOccurrences(of: "E: 1", with: "E: \(100 + round)") }.joined(separator: "\n") + "\n"
            round += 1
        }
        let path = makeTemporaryDirectory() + "/large.evemu"
        writeFile(path, text)
        let reader = try EvemuReader(path: path)
        var events = 0
        while try reader.nextEvent() != nil { events += 1 }
        #expect(events == round * lines.filter { $0.hasPrefix("E:") }.count)
        #expect(reader.readsAhead && reader.linesParsedAhead > 0, "\(reader.linesParsedAhead) lines parsed ahead")
    }

    /// Stopped part-way (an interrupted replay), the event thread ends at once and takes nothing more.
    @Test func eventsReadAheadStopPartWay() throws {
        let (description, lines) = try Fixtures.mixedEvemuLines()
        let path = makeTemporaryDirectory() + "/whole.evemu"
        writeFile(path, description + "\n" + lines.joined(separator: "\n") + "\n")
        let reader = try EvemuReader(path: path, readsLinesInOneScan: true, bufferBytes: 4_096, readAheadMinimumFileBytes: 0)
        let direct = try EvemuReader(path: path, readsLinesInOneScan: true, bufferBytes: 4_096, readAheadMinimumFileBytes: .max)
        let ahead = try #require(EventReadAhead.reading(reader, batchEvents: 7))
        for _ in 0..<20 { #expect(try ahead.nextEvent() == direct.nextEvent()) }
        // Batches of 7: events 14 to 20 are the third, all taken but event 20. The rest of it comes in
        // one call, whose body may stop early: the batch is taken all the same.
        var firstOfRest: InputEvent?
        var restCount = 0
        let goesOn = try ahead.nextEvents { batch in
            firstOfRest = batch[0]
            restCount = batch.count
            return false
        }
        #expect(goesOn == false)
        #expect(restCount == 1)
        #expect(try firstOfRest == direct.nextEvent())
        // The next call starts the fourth batch (events 21 to 27): its first event, then the rest.
        var fourth: [InputEvent] = []
        while fourth.count < 7, try ahead.nextEvents({ batch in
            for index in batch.indices { fourth.append(batch[index]) }
            return true
        }) == true {}
        var expected: [InputEvent] = []
        for _ in 0..<7 { if let event = try direct.nextEvent() { expected.append(event) } }
        #expect(fourth == expected)
        ahead.stop()
        #expect(try ahead.nextEvent() == nil)
        #expect(try ahead.nextEvents { _ in true } == nil)
        ahead.stop()  // idempotent
        // A small file, or one read through a pipe, is not worth a thread.
        #expect(EventReadAhead.reading(try EvemuReader(path: path)) == nil)
    }

    @Test func aSmallFileIsReadOnItsOwnThread() throws {
        let reader = try EvemuReader(path: Fixtures.pinchRecording.path)
        while try reader.nextEvent() != nil {}
        #expect(!reader.readsAhead, "below LineInput.readAheadMinimumFileBytes")
    }
}
