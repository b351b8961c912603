import GestureTools
import Testing

/// `ToolConfigurationWriter` on users' files: only the tuned values change, every other byte stays.
@Suite struct ToolConfigurationWriterTests {
    static func inputActions(_ original: String?, _ settings: InputActionsSettings = {
        var s = InputActionsSettings()
        s.motionThreshold3 = 40
        s.angleTolerance = 25
        return s
    }()) throws -> (written: String, read: InputActionsSettings) {
        let written = ToolConfigurationWriter.write(.inputactions(settings), keys: ["motion_threshold_3", "swipe.angle_tolerance"],
                                                    original: original, header: ["measured"])
        return (written, try InputActionsSettings.read(written, file: "config.yaml"))
    }

    @Test func inputActionsWritesAFileItReadsBack() throws {
        let (written, read) = try Self.inputActions(nil)
        #expect(written == "# pinchlab tune: measured\ndevice_rules:\n  - conditions: $touchpad\n    motion_threshold_3: 40\n    swipe:\n      angle_tolerance: 25\n")
        #expect(read.motionThreshold3 == 40 && read.angleTolerance == 25)
    }

    @Test func inputActionsChangesTheWinningLineOrPutsARuleFirst() throws {
        // The first touchpad rule sets motion_threshold_3 in block style: that line changes. The
        // angle tolerance only a flow-style mapping sets: a rule put first sets it.
        let original = """
        device_rules:
        - conditions: $touchpad
          motion_threshold_3: 10   # mine
          swipe: {angle_tolerance: 15}
        - motion_threshold_3: 3
        touchpad:
          gestures:
            - type: swipe
              direction: left

        """
        let (written, read) = try Self.inputActions(original)
        #expect(read.motionThreshold3 == 40 && read.angleTolerance == 25 && read.triggers.count == 1)
        #expect(written == "# pinchlab tune: measured\ndevice_rules:\n- conditions: $touchpad\n  swipe:\n    angle_tolerance: 25\n"
                + original.dropFirst("device_rules:\n".count).replacing("motion_threshold_3: 10   # mine", with: "motion_threshold_3: 40   # mine"),
                "\(written)")
        // Tuned again: nothing piles up.
        let again = ToolConfigurationWriter.write(.inputactions(read), keys: ["motion_threshold_3", "swipe.angle_tolerance"],
                                                  original: written, header: ["measured"])
        #expect(again == written)
    }

    @Test func inputActionsWithoutDeviceRulesOrWithAFlowList() throws {
        let gestures = "touchpad:\n  gestures:\n    - type: hold\n"
        let (appended, read) = try Self.inputActions(gestures)
        #expect(appended == "# pinchlab tune: measured\n" + gestures
                + "device_rules:\n  - conditions: $touchpad\n    motion_threshold_3: 40\n    swipe:\n      angle_tolerance: 25\n")
        #expect(read.motionThreshold3 == 40 && read.angleTolerance == 25)
        let (empty, readEmpty) = try Self.inputActions("device_rules: []\n")
        #expect(empty.contains("device_rules: [{conditions: $touchpad, motion_threshold_3: 40, swipe: {angle_tolerance: 25}}]"), "\(empty)")
        #expect(readEmpty.motionThreshold3 == 40)
        let (flow, readFlow) = try Self.inputActions("device_rules: [{motion_threshold_3: 4}]\n")
        #expect(flow.contains("[{conditions: $touchpad, motion_threshold_3: 40, swipe: {angle_tolerance: 25}}, {motion_threshold_3: 4}]"), "\(flow)")
        #expect(readFlow.motionThreshold3 == 40 && readFlow.angleTolerance == 25)
        // CRLF kept.
        let (crlf, _) = try Self.inputActions("device_rules:\r\n  - motion_threshold_3: 9\r\n")
        #expect(crlf == "# pinchlab tune: measured\r\ndevice_rules:\r\n  - conditions: $touchpad\r\n    swipe:\r\n      angle_tolerance: 25\r\n  - motion_threshold_3: 40\r\n", "\(crlf)")
    }

    @Test func toucheggRoundTripChangesOnlyTheTunedProperty() {
        let original = """
        <?xml version="1.0" encoding="UTF-8"?>
        <touchégg>
          <!-- mine -->
          <settings>
            <property name="animation_delay">150</property>
            <property name="action_execute_threshold">20</property>
            <property name="color">auto</property>
          </settings>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="MAXIMIZE_RESTORE_WINDOW"/></gesture>
          </application>
        </touchégg>

        """
        var settings = ToucheggSettings()
        settings.actionExecuteThreshold = 35
        settings.daemonStartThreshold = 30
        let written = ToolConfigurationWriter.write(.touchegg(settings), keys: ["action_execute_threshold", "daemon start threshold"],
                                                    original: original, header: ["measured"])
        #expect(written.contains("<property name=\"action_execute_threshold\">35</property>"))
        #expect(written.contains("<!-- pinchlab tune: the daemon's thresholds are its arguments, not this file's: run touchegg --daemon 30 FINISH"))
        let withoutComments = written.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("<!-- pinchlab tune:") }.joined(separator: "\n")
        #expect(withoutComments == original.replacing(">20<", with: ">35<"))
        #expect(written.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- pinchlab tune: measured -->\n"))
        #expect((try? ToucheggSettings.read(written, file: "t.conf"))?.actionExecuteThreshold == 35)
        // Tuned again: the earlier comments replaced, not piled up.
        let again = ToolConfigurationWriter.write(.touchegg(settings), keys: ["action_execute_threshold"], original: written, header: ["measured"])
        #expect(again == written)
        // A file with no such property gets it in its settings.
        let bare = "<touchegg>\n  <settings>\n  </settings>\n</touchegg>\n"
        let added = ToolConfigurationWriter.write(.touchegg(settings), keys: ["action_execute_threshold"], original: bare, header: [])
        #expect((try? ToucheggSettings.read(added, file: "t.conf"))?.actionExecuteThreshold == 35)
    }

    @Test func libinputGesturesRoundTripChangesOnlyTheTunedLines() throws {
        let original = "# my gestures\ngesture swipe up 3 xdotool key super\n  swipe_threshold: 400\ndevice all\n"
        var settings = LibinputGesturesSettings()
        settings.swipeThreshold = 50
        settings.timeoutSeconds = 0.75
        let written = ToolConfigurationWriter.write(.libinputGestures(settings), keys: ["swipe_threshold", "timeout"], original: original,
                                                    header: ["measured"])
        #expect(written == "# pinchlab tune: measured\n# my gestures\ngesture swipe up 3 xdotool key super\n  swipe_threshold: 50\ndevice all\ntimeout 0.75\n")
        let read = try LibinputGesturesSettings.read(written, file: "l.conf")
        #expect(read.swipeThreshold == 50 && read.timeoutSeconds == 0.75 && read.gestures.count == 1)
        let patch = ToolConfigurationWriter.diff(old: original, new: written, path: "l.conf")
        #expect(patch.contains("-  swipe_threshold: 400\n+  swipe_threshold: 50\n") && patch.contains("+timeout 0.75\n")
                && patch.contains("+# pinchlab tune: measured\n"), "\(patch)")
        #expect(patch.hasPrefix("--- l.conf\n+++ l.conf\n@@ -1,"))
    }
}

/// What the writer writes, read by the formats' own parsers (libyaml, XMLParser): a file the
/// format accepts, the same as the user's but for the tuned values.
@Suite struct WrittenFilesByTheFormatsOwnRulesTests {
    static func changed(_ before: [String], _ after: [String]) -> [String] {
        Array(Set(after).subtracting(before)).sorted() + Array(Set(before).subtracting(after)).sorted().map { "-" + $0 }
    }

    @Test func fusumaBlockFlowAndNew() throws {
        let block = "# mine\nswipe:\n  3:\n    left:\n      command: 'xdotool key super+Left' # go\nthreshold:\n  swipe: 0.3 # bundled\n  pinch: 0.1\ninterval:\n  swipe: 1\n"
        var s = FusumaSettings()
        s.threshold = [.swipe: 0.5, .pinch: 0.1]
        let written = ToolConfigurationWriter.write(.fusuma(s), keys: ["threshold.swipe"], original: block, header: ["measured"])
        #expect(Self.changed(try FormatsOwnParsers.yamlScalars(block), try FormatsOwnParsers.yamlScalars(written))
                == ["threshold.swipe=0.5", "-threshold.swipe=0.3"], "\(written)")
        let flow = "threshold: {swipe: 0.3, pinch: 0.1}\nswipe:\n  3:\n    left:\n      command: x\n"
        let fromFlow = ToolConfigurationWriter.write(.fusuma(s), keys: ["threshold.swipe"], original: flow, header: [])
        #expect(Self.changed(try FormatsOwnParsers.yamlScalars(flow), try FormatsOwnParsers.yamlScalars(fromFlow))
                == ["threshold.swipe=0.5", "-threshold.swipe=0.3"], "\(fromFlow)")
        let new = ToolConfigurationWriter.write(.fusuma(s), keys: ["threshold.swipe"], original: nil, header: ["measured"])
        #expect(try FormatsOwnParsers.yamlScalars(new) == ["threshold.swipe=0.5"], "\(new)")
    }

    @Test func inputActionsInPlaceAndPutFirst() throws {
        let original = """
        # mine
        device_rules:
          - conditions: $touchpad
            motion_threshold_3: 10 # the default
          - motion_threshold_3: 40
        touchpad:
          gestures:
            - type: swipe
              fingers: 3
              direction: right
              actions:
                - command: "xdotool key super+Right"

        """
        var s = InputActionsSettings()
        s.motionThreshold3 = 75
        let inPlace = ToolConfigurationWriter.write(.inputactions(s), keys: ["motion_threshold_3"], original: original, header: ["m"])
        #expect(Self.changed(try FormatsOwnParsers.yamlScalars(original), try FormatsOwnParsers.yamlScalars(inPlace))
                == ["device_rules[0].motion_threshold_3=75", "-device_rules[0].motion_threshold_3=10"], "\(inPlace)")
        // The angle tolerance no rule sets: a rule put first; the user's rules follow, each as it was.
        s.angleTolerance = 30
        let first = ToolConfigurationWriter.write(.inputactions(s), keys: ["swipe.angle_tolerance"], original: original, header: [])
        let before = try FormatsOwnParsers.yamlScalars(original)
        let after = try FormatsOwnParsers.yamlScalars(first)
        #expect(Array(after.prefix(2)) == ["device_rules[0].conditions=$touchpad", "device_rules[0].swipe.angle_tolerance=30"], "\(first)")
        let shifted = before.map { line in
            guard line.hasPrefix("device_rules["), let close = line.firstIndex(of: "]"),
                  let n = Int(line[line.index(line.startIndex, offsetBy: 13)..<close]) else { return line }
            return "device_rules[\(n + 1)]" + line[line.index(after: close)...]
        }
        #expect(Array(after.dropFirst(2)) == shifted, "\(first)")
        // No device rules, a flow list: what libyaml reads is the rule and the file's own.
        let flow = "device_rules: [{motion_threshold_3: 4}]\n"
        let fromFlow = ToolConfigurationWriter.write(.inputactions(s), keys: ["swipe.angle_tolerance"], original: flow, header: [])
        #expect(try FormatsOwnParsers.yamlScalars(fromFlow)
                == ["device_rules[0].conditions=$touchpad", "device_rules[0].swipe.angle_tolerance=30", "device_rules[1].motion_threshold_3=4"])
    }

    @Test func toucheggOnlyThePropertyText() throws {
        let original = """
        <?xml version="1.0" encoding="UTF-8"?>
        <touchégg>
          <!-- mine -->
          <settings>
            <property name="animation_delay">150</property>
            <property name="action_execute_threshold">20</property>
          </settings>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP"><action type="MAXIMIZE_RESTORE_WINDOW"><animate>true</animate></action></gesture>
          </application>
        </touchégg>

        """
        var s = ToucheggSettings()
        s.actionExecuteThreshold = 35
        let written = ToolConfigurationWriter.write(.touchegg(s), keys: ["action_execute_threshold"], original: original, header: ["measured"])
        #expect(Self.changed(try FormatsOwnParsers.xmlElements(original), try FormatsOwnParsers.xmlElements(written))
                == ["  property text=35", "-  property text=20"], "\(written)")
        let bare = "<touchegg>\n  <application name=\"All\"/>\n</touchegg>\n"
        let added = ToolConfigurationWriter.write(.touchegg(s), keys: ["action_execute_threshold"], original: bare, header: [])
        #expect(Self.changed(try FormatsOwnParsers.xmlElements(bare), try FormatsOwnParsers.xmlElements(added))
                == ["  property text=35", "property name=action_execute_threshold", "settings"], "\(added)")
        for bad in ["<a><b></a>", "<a>", "<a x=1/>", "<a></a><b/>"] {
            #expect(throws: FormatsOwnParsers.Refused.self, "\(bad)") { try FormatsOwnParsers.xmlElements(bad) }
        }
        #expect(throws: FormatsOwnParsers.Refused.self) { try FormatsOwnParsers.yamlScalars("a: [b\n") }
    }
}
