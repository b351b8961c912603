import Foundation
import Testing

/// The test targets whose tests wait on children, devices and sockets run every suite on the
/// blocking tests' threads (`@Suite(.blocking)`, Tests/PinchlabTestSupport/BlockingTests.swift): a
/// suite added without it would hold one of the cooperative pool's few threads while it waits.
@Suite struct BlockingSuitesTests {
    static let targets = ["CLITests", "VirtualDeviceTests", "PinchlabWebTests"]

    @Test func everySuiteThatWaitsRunsOnItsOwnThreads() throws {
        var suites = 0
        var without: [String] = []
        for target in Self.targets {
            let directory = LayeringTests.root.appendingPathComponent("Tests/\(target)")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                    suites += 1
                    if !line.contains(".blocking") { without.append("\(target)/\(name): \(line)") }
                }
            }
        }
        #expect(suites > 80, "the suites were found (\(suites))")
        #expect(without.isEmpty, "suites without .blocking:\n\(without.joined(separator: "\n"))")
    }

    /// Every child a test starts with Foundation's Process goes through `Process.start()`
    /// (Tests/PinchlabTestSupport/ChildSpawning.swift), which never starts one inside a mount whose
    /// crash watcher a test looks for: a `run()` of its own could hand that watcher's socket to an
    /// unrelated child (a FUSE test waiting 60 s, then failing).
    @Test func everyChildStartsOutsideAWatchedMount() throws {
        let tests = LayeringTests.root.appendingPathComponent("Tests")
        var starts = 0
        var runs: [String] = []
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        for name in files where name.hasSuffix(".swift") && name != "PinchlabTestSupport/ChildSpawning.swift"
            && name != "DocumentationTests/BlockingSuitesTests.swift" {
            let text = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
            starts += text.components(separatedBy: ".start()").count - 1
            for line in text.split(separator: "\n") where line.contains(".run()") { runs.append("\(name): \(line)") }
        }
        #expect(starts > 10, "the children's starts were found (\(starts))")
        #expect(runs.isEmpty, "children started with run():\n\(runs.joined(separator: "\n"))")
    }
}
