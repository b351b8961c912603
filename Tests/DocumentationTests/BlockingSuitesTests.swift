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
}
