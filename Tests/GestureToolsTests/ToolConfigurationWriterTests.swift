import GestureTools
import Testing

/// `ToolConfigurationWriter` on users' files: only the tuned values change, every other byte stays.
@Suite struct ToolConfigurationWriterTests {
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
