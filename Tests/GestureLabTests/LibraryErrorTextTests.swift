import Foundation
import GestureKit
import SystemPackage
import Testing
@testable import GestureLab
@testable import LabReports

/// Library errors say what happened; the advice (a command to run, an option to pass) is the CLI's.
@Suite struct LibraryErrorTextTests {
    static let descriptions: [String] = [
        EvdevError.permissionDenied(path: "/dev/input/event3").description,
        EvdevError.noSuchDevice(path: "/dev/input/event9").description,
        EvdevError.notAnEvdevDevice(path: "/tmp/x", errno: Errno(rawValue: ENOTTY)).description,
        EvdevError.deviceRemoved(path: "/dev/input/event3").description,
        EvdevError.system(path: "/dev/input/event3", call: "read", errno: Errno(rawValue: EIO)).description,
        DiscoveryError.noDevices(directory: "/dev/input").description,
        DiscoveryError.noTouchDevice(directory: "/dev/input", count: 3).description,
        DiscoveryError.permissionDenied(directory: "/dev/input").description,
        DiscoveryError.cannotReadDirectory(directory: "/dev/input", errno: Errno(rawValue: ENOENT)).description,
        PlotError.noSuchTrial(4, count: 2).description,
        PlotError.trialNotKept(300, kept: 256).description,
        PlotError.startsAfterTheEnd(from: 9, duration: 3).description,
        PlotError.emptyWindow(from: 2, to: 1).description,
    ]

    @Test(arguments: descriptions)
    func aLibraryErrorCarriesNoCommandLineAdvice(description: String) {
        #expect(!description.contains("pinchlab "), "\(description)")
        #expect(!description.contains("--"), "\(description)")
        #expect(!description.contains("usermod"), "\(description)")
    }

    @Test func aMissingManifestSaysWhatIsMissingOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-manifest-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            _ = try CorpusFiles.locate(directory)
            Issue.record("a directory without a manifest was accepted")
        } catch let error as CorpusError {
            #expect(error.kind == .noManifest)
            #expect(!error.description.contains("pinchlab "), "\(error.description)")
        }
    }
}
