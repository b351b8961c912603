import GestureTools
import Testing

/// Each tool's own file, read as the tool reads it; a bad one refused at its line.
@Suite struct ToolConfigurationTests {
    @Test func lisgdFlagsWithCommentsQuotesAndBindings() throws {
        let text = """
        # tuned for my phone
        -t 90 -r 20 -m 1000
        -w 720 -h 1440 -g '1,LR,L,*,R,notify-send "from the left"'
        -g "2,DU,*,M,P,echo up"
        """
        let s = try LisgdSettings.read(text, file: "lisgd.flags")
        #expect(s.threshold == 90 && s.degreesLeniency == 20 && s.timeoutMS == 1000 && s.width == 720 && s.height == 1440)
        #expect(s.bindings == [LisgdBinding(fingers: 1, swipe: .LR, edge: .left, distance: .any, pressed: false,
                                            command: "notify-send \"from the left\""),
                               LisgdBinding(fingers: 2, swipe: .DU, edge: .any, distance: .medium, pressed: true, command: "echo up")])
    }

    @Test func lisgdRefusalsNameTheLine() {
        func refused(_ text: String) -> ToolConfigurationError? {
            do { _ = try LisgdSettings.read(text, file: "f"); return nil } catch { return error }
        }
        #expect(refused("-t 90\n-x 3")?.line == 2)
        #expect(refused("-t 90\n\n-m")?.reason == .missingValue(setting: "-m"))
        #expect(refused("# c\n-t ninety")?.reason == .badValue(setting: "-t", value: "ninety", expected: "a whole number"))
        #expect(refused("-g '1,LR,*'")?.line == 1)
        #expect(refused("-g '1,XY,*,*,R,x'") != nil)
        #expect(refused("-g 'unclosed")?.reason == .malformed(expected: "a closing ' quote"))
    }

    @Test func toucheggReadsItsSettingsAsTouchegg() throws {
        let text = """
        <touchégg>
          <settings>
            <property name="animation_delay">150</property>
            <property name="action_execute_threshold">35.7</property>
            <property name="color">auto</property>
          </settings>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="UP">
              <action type="MAXIMIZE_RESTORE_WINDOW"><animate>true</animate></action>
            </gesture>
          </application>
        </touchégg>
        """
        #expect(try ToucheggSettings.read(text, file: "t.conf").actionExecuteThreshold == 35)
        #expect(try ToucheggSettings.read("<t><settings><property name=\"action_execute_threshold\">250</property></settings></t>",
                                          file: "t").actionExecuteThreshold == 100)
        do {
            _ = try ToucheggSettings.read("<t>\n<settings>\n<property name='x'>1</settings>\n</t>", file: "t.conf")
            Issue.record("a mismatched end tag was taken")
        } catch {
            #expect(error.line == 3)
        }
        do {
            _ = try ToucheggSettings.read("<t><settings><property name=\"animation_delay\">soon</property></settings></t>", file: "t")
            Issue.record("a delay that is not a number was taken")
        } catch {
            #expect(error.reason == .badValue(setting: "animation_delay", value: "soon", expected: "a whole number of ms"))
        }
    }

    @Test func libinputGesturesConfLines() throws {
        let text = """
        # comment
        gesture swipe up 3 xdotool key super+Page_Up
        gesture swipe left_up xdotool key a
        gesture pinch clockwise xdotool key b
        swipe_threshold 40
        timeout 0.8
        gesture hold on+0.5 4 notify-send held
        """
        let s = try LibinputGesturesSettings.read(text, file: "c")
        #expect(s.swipeThreshold == 40 && s.timeoutSeconds == 0.8 && s.obliqueSwipes && s.rotations)
        #expect(s.gestures.map(\.fingers) == [3, nil, nil, 4])
        func line(_ text: String) -> Int? {
            do { _ = try LibinputGesturesSettings.read(text, file: "c"); return nil } catch { return error.line }
        }
        #expect(line("gesture swipe up 3 x\ngesture tap 3 x") == 2)
        #expect(line("swipe_threshold -1") == 1)
        #expect(line("\n\ntimeout soon") == 3)
        #expect(line("gesture swipe up 3") == 1)
        #expect(line("Gesture swipe up x") == 1)
    }
}
