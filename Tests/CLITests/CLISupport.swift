import Foundation
import Testing

/// Runs the built `pinchlab` binary (built with the tests: the test target depends on it).
struct CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary: URL = {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = here.deletingLastPathComponent()
        // The XCTest/Testing bundle may be a directory (…/pinchlabPackageTests.xctest/…); walk up to the build dir.
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("pinchlab").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("pinchlab")
    }()

    static func fixture(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        func json(line index: Int) throws -> [String: Any] {
            let data = Data(lines[index < 0 ? lines.count + index : index].utf8)
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    @discardableResult
    static func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        // Output goes to files, so a chatty process never blocks on a full pipe.
        let dir = try temporaryDirectory()
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("pinchlab \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
