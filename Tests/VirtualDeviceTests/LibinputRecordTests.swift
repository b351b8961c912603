import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// Debian's `libinput record` must accept the node as an evdev device: proof it looks like one.
@Suite(.blocking, .needs(.fuse)) struct LibinputRecordTests {
    static let libinput = "/usr/bin/libinput"

    @Test(.needs(.libinput))
    func libinputRecordRecordsTheServedGesture() throws {
        let device = try Fixtures.device(test: "libinput-record")
        defer { device.stop() }
        let gesture = Fixtures.twoFingerSpread()
        device.enqueue(gesture)

        let output = Fixtures.directory("libinput-record-out") + ".yml"
        try? FileManager.default.removeItem(atPath: output)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let record = Process()
        record.executableURL = URL(fileURLWithPath: Self.libinput)
        record.arguments = ["record", "--show-keycodes", "-o", output, device.path]
        record.standardOutput = FileHandle.nullDevice
        record.standardError = FileHandle.nullDevice
        try record.start()
        defer { if record.isRunning { record.terminate() } }

        // libinput record runs until SIGINT; stop it once it has read everything.
        #expect(device.waitUntilOpened(timeoutSeconds: 10))
        #expect(device.waitUntilGenerated(timeoutSeconds: 10))
        Thread.sleep(forTimeInterval: 0.5)
        record.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while record.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!record.isRunning)

        let yaml = try String(contentsOfFile: output, encoding: .utf8)
        #expect(yaml.contains("name: \"\(Fixtures.clickpad.name)\""))
        let id = Fixtures.clickpad.id
        #expect(yaml.contains("id: [\(id.bustype), \(id.vendor), \(id.product), \(id.version)]"))
        #expect(yaml.contains("properties: [0, 2]"), "INPUT_PROP_POINTER and INPUT_PROP_BUTTONPAD")

        // Event lines are "- [sec, usec, type, code, value] # ...", time relative to the first event.
        let recorded: [[Int64]] = yaml.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("- ["), let close = trimmed.firstIndex(of: "]") else { return nil }
            let fields = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 3)..<close]
                .split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            return fields.count == 5 ? fields : nil
        }
        let first = gesture[0].time.totalMicroseconds
        let expected: [[Int64]] = gesture.map { event in
            let relative = event.time.totalMicroseconds - first
            return [relative / 1_000_000, relative % 1_000_000, Int64(event.type.rawValue), Int64(event.code.rawValue), Int64(event.value)]
        }
        #expect(recorded == expected)

        // pinchlab reads what libinput wrote: the same description and the events as served.
        var reader = try openRecording(path: output)
        #expect(reader.device.name == Fixtures.clickpad.name)
        #expect(reader.device.id == Fixtures.clickpad.id)
        #expect(reader.device.properties == Fixtures.clickpad.properties)
        #expect(reader.device.absInfo[.absMTPositionX]?.resolution == 12)
        #expect(reader.device.slotCount == Fixtures.clickpad.slotCount)
        var read: [InputEvent] = []
        while let event = try reader.nextEvent() { read.append(event) }
        let relative = gesture.map { event in
            var e = event
            e.time = EventTime(totalMicroseconds: event.time.totalMicroseconds - first)
            return e
        }
        #expect(read == relative)
        // libinput's own event lines are read without libyaml from the events list to the end of
        // the file (`CanonicalRecordLines`): never handed back to libyaml.
        let yamlReader = try #require(reader as? LibinputRecordReader)
        let taken = try #require(yamlReader.canonicalLinesRange, "libyaml read the events list of libinput's own output")
        #expect(taken.handedBackAt == nil, "handed back to libyaml at line \(taken.handedBackAt ?? 0) of \(yaml)")
        #expect(yaml.split(separator: "\n", omittingEmptySubsequences: false)[taken.first - 1].hasSuffix("- evdev:"))
    }
}
