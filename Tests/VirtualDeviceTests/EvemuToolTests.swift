import Foundation
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// Debian's evemu tools on the node. `evemu-describe` reads it like a kernel device; `evemu-record`
/// cannot: it first checks that nobody grabbed the device with `EVIOCGRAB`, which a FUSE file
/// never receives (see `grabCannotReachAFUSEFile`).
@Suite(.blocking, .needs(.fuse)) struct EvemuToolTests {
    static let describe = "/usr/bin/evemu-describe"

    @Test(.needs(.evemuDescribe))
    func evemuDescribeDescribesTheNodeAsServed() throws {
        let device = try Fixtures.device(test: "evemu-describe")
        defer { device.stop() }
        let output = Fixtures.directory("evemu-describe-out") + ".evemu"
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.describe)
        process.arguments = [device.path]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.start()
        // Polled: Foundation's waitUntilExit() can miss the child's exit from a test thread.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        try #require(!process.isRunning)
        #expect(process.terminationStatus == 0)

        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("N: \(Fixtures.clickpad.name)"))
        #expect(text.contains("I: 0011 0002 0007 01b1"))
        // pinchlab reads what evemu wrote: the description as served.
        let reader = try openRecording(path: output)
        #expect(reader.device.name == Fixtures.clickpad.name)
        #expect(reader.device.id == Fixtures.clickpad.id)
        #expect(reader.device.properties == Fixtures.clickpad.properties)
        #expect(reader.device.codes[.key] == Fixtures.clickpad.codes[.key])
        for (code, info) in Fixtures.clickpad.absInfo {
            let got = reader.device.absInfo[code]
            #expect(got?.minimum == info.minimum && got?.maximum == info.maximum && got?.resolution == info.resolution)
        }
    }
}
