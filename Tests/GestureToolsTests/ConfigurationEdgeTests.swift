@testable import GestureTools
import Testing

/// The tools' files at their edges: Windows line ends, numbers no count holds, nesting no stack
/// holds, touchegg's fallbacks, libinput-gestures' hold delays, a lisgd flag given twice.
@Suite struct ConfigurationEdgeTests {
    /// "\r\n" is one Character in Swift: a split on "\n" never finds it, and every line after the
    /// first was lost or misread.
    @Test func windowsLineEndsAreLineEnds() throws {
        let gestures = try LibinputGesturesSettings.read("gesture swipe up 3 x\r\nswipe_threshold 40\r\ntimeout 0.5\r\n", file: "c")
        #expect(gestures.swipeThreshold == 40 && gestures.timeoutSeconds == 0.5)
        do {
            _ = try LibinputGesturesSettings.read("swipe_threshold 40\r\n\r\ntimeout soon\r\n", file: "c")
            Issue.record("a bad third line was taken")
        } catch {
            #expect(error.line == 3)
        }
        let lisgd = try LisgdSettings.read("# mine\r\n-t 90\r\n-r 20\r\n", file: "f")
        #expect(lisgd.threshold == 90 && lisgd.degreesLeniency == 20)
        let fusuma = try FusumaSettings.read("threshold:\r\n  swipe: 0.5\r\n", file: "f")
        #expect(fusuma.threshold[.swipe] == 0.5)
        do {
            _ = try ToucheggSettings.read("<t>\r\n<settings>\r\n<property name='x'>1</settings>\r\n</t>", file: "t")
            Issue.record("a mismatched end tag was taken")
        } catch {
            #expect(error.line == 3)
        }
        // Written back with the file's own line ends.
        let written = ToolConfigurationWriter.write(.libinputGestures(gestures), keys: ["swipe_threshold"],
                                                    original: "gesture swipe up 3 x\r\nswipe_threshold 10\r\n", header: [])
        #expect(written == "gesture swipe up 3 x\r\nswipe_threshold 40\r\n")
    }

    @Test func numbersNoCountHoldsAreRefusedNotCrashedOn() {
        for fingers in ["1e20", "inf", "-1", "2.5", "4-2"] {
            do {
                _ = try InputActionsSettings.read("touchpad:\n  gestures:\n    - type: swipe\n      fingers: \(fingers)\n      direction: left\n",
                                                  file: "f")
                Issue.record("fingers: \(fingers) was taken")
            } catch {
                #expect(error.line == 4, "fingers: \(fingers)")
            }
        }
    }

    @Test func nestingDeeperThanAStackHoldsIsRefusedAtItsLine() {
        let flow = "threshold: " + String(repeating: "[", count: 100_000) + "\n"
        do { _ = try FusumaSettings.read(flow, file: "f"); Issue.record("100,000 nested lists were taken") } catch { #expect(error.line == 1) }
        let blocks = (0..<100).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + "\n"
        do { _ = try FusumaSettings.read(blocks, file: "f"); Issue.record("100 nested mappings were taken") } catch { #expect(error.line == 65) }
        let xml = String(repeating: "<a>", count: 100_000)
        do { _ = try ToucheggSettings.read(xml, file: "t"); Issue.record("100,000 nested elements were taken") } catch { #expect(error.line == 1) }
        // 64 deep is still read.
        #expect(throws: Never.self) { try ToucheggSettings.read(String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64), file: "t") }
    }

    /// touchegg's `stoi` out of int's range throws, and touchegg falls back to 20; a property
    /// without a name is stored under "" and ignored.
    @Test func toucheggFallsBackAsTouchegg() throws {
        func threshold(_ text: String) throws -> Int {
            try ToucheggSettings.read("<t><settings>\(text)</settings></t>", file: "t").actionExecuteThreshold
        }
        #expect(try threshold("<property name='action_execute_threshold'>5000000000</property>") == 20)
        #expect(try threshold("<property name='action_execute_threshold'>-5</property>") == 0)
        #expect(try threshold("<property name='action_execute_threshold'>35</property><property>12</property>") == 35)
        #expect(throws: Never.self) { try ToucheggSettings.read("<t><settings><property name='animation_delay'>-5</property></settings></t>", file: "t") }
    }

    /// libinput-gestures 2.77's hold delays: the line with the largest delay not longer than the
    /// hold runs; none when every delay is longer (a 0.2 s hold under `on+0.6`).
    @Test func holdDelaysPickTheLongestHeld() throws {
        let settings = try LibinputGesturesSettings.read("gesture hold on+0.3 x\ngesture hold on 4 y\ngesture hold on+0.6 4 z\n", file: "c")
        let emulator = LibinputGesturesEmulator(settings: settings)
        #expect(emulator.holdMotion(fingers: 4, held: 0.2) == "on")
        #expect(emulator.holdMotion(fingers: 4, held: 0.4) == "on+0.3", "the larger generic delay wins over `on 4`")
        #expect(emulator.holdMotion(fingers: 4, held: 0.7) == "on+0.6")
        #expect(emulator.holdMotion(fingers: 3, held: 0.2) == nil, "no line for 3 fingers is held long enough")
        let only = LibinputGesturesEmulator(settings: try LibinputGesturesSettings.read("gesture hold on+0.6 4 z\n", file: "c"))
        let hold: [ToolEvent] = [.gesture(GestureStep(kind: .hold, phase: .begin, time: 0, fingers: 4)),
                                 .gesture(GestureStep(kind: .hold, phase: .end, time: 0.2, fingers: 4))]
        #expect(only.judge(ToolStreams.touchpadStream(hold)).isEmpty)
    }

    /// lisgd (and `LisgdSettings.read`) take the last value a flag is given: the writer changes
    /// every one, so the tuned value is the one read back.
    @Test func aFlagGivenTwiceIsTunedEverywhere() throws {
        var settings = try LisgdSettings.read("-t 100\n-t 120 -w 720 -h 1440\n", file: "f")
        settings.threshold = 200
        let written = ToolConfigurationWriter.write(.lisgd(settings), keys: ["-t"], original: "-t 100\n-t 120 -w 720 -h 1440\n", header: [])
        #expect(written == "-t 200\n-t 200 -w 720 -h 1440\n")
        #expect(try LisgdSettings.read(written, file: "f").threshold == 200)
        // Quoted words keep their quotes; only the value after the flag changes.
        let quoted = ToolConfigurationWriter.write(.lisgd(settings), keys: ["-t"], original: "-g '1,LR,*,*,R,echo -t 5' -t 9\n", header: [])
        #expect(quoted == "-g '1,LR,*,*,R,echo -t 5' -t 200\n")
    }
}
