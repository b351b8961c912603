import Glibc
import Synchronization
import Testing
import GestureCore
import GestureKit

/// The readers stream: a recording far larger than any buffer, generated as it is read and fed
/// through a pipe (never written out or held whole), is read to its end while the bytes written
/// but not yet turned into events stay below a bound. A reader that buffered the file, or most of
/// it, would have to take the whole stream before its first event. No timing, no process-wide
/// memory figure (tests run in parallel in one process): the feeder's position against the
/// position of each event the reader returns.
@Suite struct StreamingReadTests {
    /// The stream's length: 64 MiB, 32 times `inFlightBytesMax`, so that a reader holding even a
    /// small fraction of it fails; `PINCHLAB_STREAM_MIB=512` for a longer run (about 20 s a
    /// format in a debug build).
    static let streamBytes: Int = {
        guard let text = getenv("PINCHLAB_STREAM_MIB"), let mebibytes = Int(String(cString: text)) else { return 64 << 20 }
        return mebibytes << 20
    }()

    /// What may be in flight between the feeder and the reader: the reader's line buffer refills
    /// from the pipe only when it holds no whole line, so about the pipe's 64 KiB, libyaml's
    /// 64 KiB of buffers, the feeder's current block (60 KB); 2 MiB is twice the reader's buffer.
    static let inFlightBytesMax = 2 << 20

    /// A recording of `Fixtures.touchpad` made of one block of frames repeated, each copy one second
    /// later (the seconds are the only thing that changes: 10 digits at fixed places).
    struct GeneratedRecording {
        var header: [UInt8]
        var block: [UInt8]
        /// Where each of the block's event lines ends (after its line break), in the block.
        var eventLineEnds: [Int]
        /// Where in each line of the block the 10 digits of the seconds begin.
        var secondsOffsets: [Int]
        var blockEvents: [InputEvent]
        static let firstSecond: Int64 = 1_000_000_000

        init(format: RecordingFormat, directory: String) throws {
            var events: [InputEvent] = []
            for frame in 0..<400 {
                let time = EventTime(seconds: Self.firstSecond, microseconds: Int32(frame * 2000))
                events.append(InputEvent(time: time, type: .abs, code: .absMTPositionX, value: Int32(1300 + frame)))
                events.append(InputEvent(time: time, type: .abs, code: .absMTPositionY, value: Int32(1100 + frame)))
                events.append(InputEvent(time: time, type: .syn, code: .synReport, value: 0))
            }
            blockEvents = events
            let headerPath = directory + "/header." + format.preferredFileExtension
            try makeRecordingWriter(path: headerPath, format: format, device: Fixtures.touchpad).close()
            header = fileBytes(headerPath)
            let fullPath = directory + "/block." + format.preferredFileExtension
            let writer = try makeRecordingWriter(path: fullPath, format: format, device: Fixtures.touchpad)
            for event in events { try writer.write(event) }
            try writer.close()
            block = Array(fileBytes(fullPath)[header.count...])
            let secondsPrefix = Array((format == .evemu ? "E: " : "    - [").utf8)
            eventLineEnds = []
            secondsOffsets = []
            var lineStart = 0
            for (index, byte) in block.enumerated() where byte == 0x0A {
                if block[lineStart...].starts(with: secondsPrefix) {
                    eventLineEnds.append(index + 1)
                    secondsOffsets.append(lineStart + secondsPrefix.count)
                }
                lineStart = index + 1
            }
            precondition(eventLineEnds.count == events.count)
            precondition(secondsOffsets.allSatisfy { String(decoding: block[$0..<$0 + 10], as: UTF8.self) == "\(Self.firstSecond)" })
        }

        /// The same frames as evtest prints them, after `EvtestReaderTests.header`.
        init(evtest: Void) {
            let frames = try! GeneratedRecording(format: .evemu, directory: makeTemporaryDirectory())
            blockEvents = frames.blockEvents
            header = Array(EvtestReaderTests.header.utf8)
            let secondsPrefix = Array("Event: time ".utf8)
            block = []
            eventLineEnds = []
            secondsOffsets = []
            for event in blockEvents {
                secondsOffsets.append(block.count + secondsPrefix.count)
                let name = event.code == .absMTPositionX ? "53 (ABS_MT_POSITION_X)" : "54 (ABS_MT_POSITION_Y)"
                let line = event.isSynReport ? "Event: time \(event.time), -------------- SYN_REPORT ------------\n"
                    : "Event: time \(event.time), type 3 (EV_ABS), code \(name), value \(event.value)\n"
                block += Array(line.utf8)
                eventLineEnds.append(block.count)
            }
        }

        /// Copy `index` of the block, `index` seconds later.
        func block(_ index: Int) -> [UInt8] {
            var copy = block
            let digits = Array(String(Self.firstSecond + Int64(index)).utf8)
            for offset in secondsOffsets { copy.replaceSubrange(offset..<offset + 10, with: digits) }
            return copy
        }
    }

    @Test(arguments: [RecordingInputFormat.evemu, .libinputRecord, .evtest])
    func aRecordingLargerThanEveryBufferIsReadAsItArrives(format: RecordingInputFormat) throws {
        let recording = switch format {
        case .evemu: try GeneratedRecording(format: .evemu, directory: makeTemporaryDirectory())
        case .libinputRecord: try GeneratedRecording(format: .libinputRecord, directory: makeTemporaryDirectory())
        case .evtest: GeneratedRecording(evtest: ())
        }
        let blockCount = (Self.streamBytes - recording.header.count) / recording.block.count + 1
        let nextChunk = Mutex(0)
        let feeder = PipeFeeder {
            nextChunk.withLock { next in
                defer { next += 1 }
                if next == 0 { return recording.header }
                return next <= blockCount ? recording.block(next - 1) : nil
            }
        }
        var events = 0
        var inFlightMax = 0
        var mismatches = 0
        do {
            var source = try openRecording(path: feeder.path)
            let perBlock = recording.blockEvents.count
            while let event = try source.nextEvent() {
                let (block, index) = events.quotientAndRemainder(dividingBy: perBlock)
                let lineEnd = recording.header.count + block * recording.block.count + recording.eventLineEnds[index]
                inFlightMax = max(inFlightMax, feeder.bytesWritten.load(ordering: .sequentiallyConsistent) - lineEnd)
                var expected = recording.blockEvents[index]
                expected.time.seconds += Int64(block)
                if event != expected { mismatches += 1 }
                events += 1
            }
        }
        feeder.finish()
        let streamed = feeder.bytesWritten.load(ordering: .sequentiallyConsistent)
        #expect(streamed >= Self.streamBytes)
        #expect(events == blockCount * recording.blockEvents.count, "every event of the \(streamed >> 20) MiB stream")
        #expect(mismatches == 0)
        #expect(inFlightMax < Self.inFlightBytesMax,
                "at most \(Self.inFlightBytesMax >> 20) MiB between the feeder and the events read; was \(inFlightMax) bytes")
    }
}
