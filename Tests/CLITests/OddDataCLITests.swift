import Foundation
import PinchlabTestSupport
import Testing

/// Data no device should send gets its warning once on stderr, and `stats` names what kind of
/// touchpad it is: files made here, each with one oddity.
@Suite(.blocking) struct OddDataCLITests {
    /// An evemu file of a touchpad: `keys` and `axes` (code, minimum, maximum, resolution) as
    /// listed, `properties` as bits, then `events` (seconds, type, code, value), each frame closed
    /// by the caller's SYN_REPORTs.
    static func evemu(properties: UInt8 = 0x05, keys: [Int], axes: [(Int, Int, Int, Int)],
                      events: [(Double, Int, Int, Int)]) throws -> String {
        var lines = ["# EVEMU 1.3", "N: odd pad", "I: 0018 0001 0002 0003",
                     "P: " + ([properties] + [UInt8](repeating: 0, count: 7)).map { String(format: "%02x", $0) }.joined(separator: " ")]
        func mask(_ type: Int, _ codes: [Int], bytes: Int) {
            var bits = [UInt8](repeating: 0, count: bytes)
            for code in codes { bits[code / 8] |= UInt8(1 << (code % 8)) }
            for chunk in stride(from: 0, to: bytes, by: 8) {
                lines.append(String(format: "B: %02x ", type) + bits[chunk..<chunk + 8].map { String(format: "%02x", $0) }.joined(separator: " "))
            }
        }
        mask(0, [0, 1, 3], bytes: 8)
        mask(1, keys, bytes: 96)
        mask(3, axes.map(\.0), bytes: 8)
        for (code, minimum, maximum, resolution) in axes {
            lines.append(String(format: "A: %02x %d %d 0 0 %d", code, minimum, maximum, resolution))
        }
        for (seconds, type, code, value) in events {
            lines.append(String(format: "E: %.6f %04x %04x %d", seconds, type, code, value))
        }
        let path = try CLI.temporaryDirectory().appendingPathComponent("odd.evemu").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let btnLeft = 0x110, toolFinger = 0x145, touch = 0x14a, doubleTap = 0x14d, tripleTap = 0x14e
    static let slot = 0x2f, x = 0x35, y = 0x36, trackingID = 0x39
    static let twoSlotAxes = [(0x00, 0, 1000, 10), (0x01, 0, 600, 10), (slot, 0, 1, 0), (x, 0, 1000, 10), (y, 0, 600, 10),
                              (trackingID, 0, 65535, 0)]

    /// One finger in slot 0 at (`x`, `y`) for each time; a second in slot 1 with `second`.
    static func frames(_ times: [Double], x xs: [Int], second: Bool = false, tool: Int? = nil) -> [(Double, Int, Int, Int)] {
        var events: [(Double, Int, Int, Int)] = []
        for (index, t) in times.enumerated() {
            events.append((t, 3, slot, 0))
            if index == 0 { events.append((t, 3, trackingID, 1)) }
            events += [(t, 3, x, xs[index]), (t, 3, y, 300)]
            if second {
                events.append((t, 3, slot, 1))
                if index == 0 { events.append((t, 3, trackingID, 2)) }
                events += [(t, 3, x, 800), (t, 3, y, 300)]
            }
            if index == 0 {
                events.append((t, 1, touch, 1))
                events.append((t, 1, tool ?? (second ? doubleTap : toolFinger), 1))
            }
            events.append((t, 0, 0, 0))
        }
        let end = (times.last ?? 0) + 0.01
        events += [(end, 3, slot, 0), (end, 3, trackingID, -1)]
        if second { events += [(end, 3, slot, 1), (end, 3, trackingID, -1)] }
        events += [(end, 1, touch, 0), (end, 1, tool ?? (second ? doubleTap : toolFinger), 0), (end, 0, 0, 0)]
        return events
    }

    @Test func positionsOutsideTheDeclaredRangeAreSaidOnceWithTheirFirstLineCountAndRange() throws {
        let times = (0..<6).map { 1.0 + Double($0) * 0.01 }
        let path = try Self.evemu(keys: [Self.btnLeft, Self.toolFinger, Self.touch, Self.doubleTap], axes: Self.twoSlotAxes,
                                  events: Self.frames(times, x: [500, 900, 1100, 1250, -40, 600]))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let firstOutside = try #require(lines.firstIndex { $0.hasSuffix(" 0003 0035 1100") }) + 1
        for command in ["stats", "replay"] {
            let r = try CLI.run([command, path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr == "pinchlab: warning: \(path):\(firstOutside): ABS_MT_POSITION_X 1100 is outside the range the "
                                 + "description declares (3 positions outside; ABS_MT_POSITION_X: -40...1250 seen, 0...1000 declared); "
                                 + "read as given, beyond the surface's edges (its size comes from the declared range)\n",
                    "\(command): \(r.stderr)")
        }
        let inside = try Self.evemu(keys: [Self.toolFinger, Self.touch, Self.doubleTap], axes: Self.twoSlotAxes,
                                    events: Self.frames(times, x: [0, 100, 200, 300, 400, 1000]))
        #expect(try CLI.run(["stats", inside]).stderr.isEmpty, "the ends of the range are inside it")
    }

    /// A two-slot touchpad saying three fingers (BTN_TOOL_TRIPLETAP) for 1.27 s: counted, as the
    /// README says BTN_TOOL_* counts, and said on stdout and once on stderr.
    @Test func toolFingersAboveTheContactsAreCountedAndSaid() throws {
        let times = (0...127).map { 2.0 + Double($0) * 0.01 }
        let path = try Self.evemu(keys: [Self.toolFinger, Self.touch, Self.doubleTap, Self.tripleTap], axes: Self.twoSlotAxes,
                                  events: Self.frames(times, x: Array(repeating: 300, count: times.count), second: true,
                                                      tool: Self.tripleTap))
        let r = try CLI.run(["stats", path])
        #expect(r.status == 0)
        // Whole: "  fingers     at most 3 down at once (BTN_TOOL_* counted: up to 3 fingers on 2 slots for
        // 1.27 s)", "  protocol    multitouch B (2 slots)".
        try Golden.expect(r, is: "stats-triple-tap-on-two-slots")
        let warnings = r.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(r.stderr)")
        #expect(warnings.first?.hasPrefix("pinchlab: warning: \(path): BTN_TOOL_* says up to 3 fingers while at most 2 contacts were down, "
                                          + "for 1.27 s in 128 frames") == true, "\(r.stderr)")
        #expect(warnings.first?.hasSuffix("counted as 3 fingers, as BTN_TOOL_* counts on a touchpad with fewer slots (2) than fingers "
                                          + "(libinput's fake fingers)") == true, "\(r.stderr)")
        let report = try CLI.run(["stats", path, "--json"]).json(line: 0)
        let tools = try #require(report["toolFingersAboveContacts"] as? [String: Any])
        #expect(tools["mostToolFingers"] as? Int == 3 && tools["counted"] as? Bool == true && tools["seconds"] as? Double == 1.27)
        #expect(report["mostFingersDown"] as? Int == 3)
    }

    @Test func statsNamesSemiMTAndProtocolA() throws {
        let semi = try Self.evemu(properties: 0x05 | 0x08, keys: [Self.toolFinger, Self.touch, Self.doubleTap], axes: Self.twoSlotAxes,
                                  events: Self.frames([1.0, 1.01], x: [100, 110]))
        let r = try CLI.run(["stats", semi])
        #expect(r.lines.contains { $0.hasPrefix("  semi-MT     yes: the touchpad reports a box around two fingers") }, "\(r.stdout)")
        #expect(try CLI.run(["stats", semi, "--json"]).json(line: 0)["semiMT"] as? Bool == true)

        // Protocol A: contacts separated by SYN_MT_REPORT, no slots.
        let axesA = [(0x00, 0, 1000, 10), (0x01, 0, 600, 10), (Self.x, 0, 1000, 10), (Self.y, 0, 600, 10)]
        var events: [(Double, Int, Int, Int)] = []
        for (index, t) in [1.0, 1.01, 1.02].enumerated() {
            events += [(t, 3, Self.x, 100 + index), (t, 3, Self.y, 100), (t, 0, 2, 0), (t, 1, Self.touch, 1), (t, 0, 0, 0)]
        }
        events += [(1.03, 0, 2, 0), (1.03, 1, Self.touch, 0), (1.03, 0, 0, 0)]
        let protocolA = try Self.evemu(properties: 0x02, keys: [Self.touch], axes: axesA, events: events)
        let a = try CLI.run(["stats", protocolA])
        // Whole: "  protocol    multitouch A (no slots: contacts matched frame to frame by distance, as mtdev does)".
        try Golden.expect(a, is: "stats-protocol-a")
        #expect(try CLI.run(["stats", protocolA, "--json"]).json(line: 0)["protocol"] as? String == "multitouch-a")
    }
}
