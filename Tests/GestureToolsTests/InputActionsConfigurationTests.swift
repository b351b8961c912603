import GestureTools
import Testing

/// InputActions' config.yaml read as InputActions 0.9 reads it (config/parsers/*.cpp); a bad one
/// refused at its line.
@Suite struct InputActionsConfigurationTests {
    /// InputActions applies its device rules last to first, each over the one below it
    /// (InputBackend::applyDeviceProperties): the first rule that sets a property wins.
    @Test func theFirstTouchpadRuleThatSetsAPropertyWins() throws {
        let text = """
        device_rules:
          - conditions: $mouse
            motion_threshold_3: 1
          - conditions: $touchpad
            motion_threshold_3: 5
          - motion_threshold_3: 9
            motion_threshold_2: 7
            swipe:
              angle_tolerance: 30
        """
        let s = try InputActionsSettings.read(text, file: "c")
        #expect(s.motionThreshold3 == 5 && s.motionThreshold2 == 7 && s.angleTolerance == 30)
        // Every rule is still checked: a bad value below the winning one is refused at its line.
        #expect(throws: ToolConfigurationError.self) { try InputActionsSettings.read(text + "\n  - motion_threshold_3: ten", file: "c") }
    }

    @Test func inputActionsReadsDeviceRulesSpeedAndTriggers() throws {
        let text = """
        device_rules:
          - conditions: $touchpad
            motion_threshold_3: 12
            swipe:
              angle_tolerance: 30
          - conditions: $mouse
            motion_threshold: 99
        touchpad:
          speed:
            events: 4
            swipe_threshold: 25
          gestures:
            - type: swipe
              fingers: 3
              direction: left
              threshold: 50
              actions:
                - on: begin
                  command: notify-send started
                - command: notify-send done
            - type: pinch
              fingers: 2-4
              direction: in
              threshold: 0.1-0.5
              speed: fast
              actions:
                - on: update
                  interval: 0.05
                  input: [ { keyboard: [ leftctrl+minus ] } ]
            - type: hold
              fingers: 4
              threshold: 300
              actions: [{on: begin, command: held}]
            - type: tap
              fingers: 2
              actions: [{command: x}]
        keyboard: {}
        """
        let s = try InputActionsSettings.read(text, file: "config.yaml")
        #expect(s.motionThreshold3 == 12 && s.motionThreshold == 10 && s.angleTolerance == 30)
        #expect(s.speed.events == 4 && s.speed.swipeThreshold == 25)
        #expect(s.hasClickOrTapTrigger)
        #expect(s.triggers.map(\.kind) == [.swipe, .pinch, .hold])
        #expect(s.triggers[0].fingers == 3...3 && s.triggers[0].direction == "left" && s.triggers[0].thresholdMin == 50)
        #expect(s.triggers[0].actsOnBegin && s.triggers[0].actsOnEnd && s.triggers[0].line == 13)
        #expect(s.triggers[1].fingers == 2...4 && s.triggers[1].thresholdMin == 0.1 && s.triggers[1].thresholdMax == 0.5)
        #expect(s.triggers[1].speed == .fast && s.triggers[1].actsOnBegin && !s.triggers[1].actsOnEnd)
        #expect(s.triggers[2].thresholdMin == 300 && s.triggers[2].thresholdMax == nil)
        // No touchpad: every gesture bound, at the file's device properties.
        let bare = try InputActionsSettings.read("device_rules:\n  - motion_threshold_3: 5", file: "c")
        #expect(bare.triggers == InputActionsTrigger.everyGesture && bare.motionThreshold3 == 5)
        #expect(try InputActionsSettings.read("", file: "c") == .defaults)
    }

    @Test func inputActionsRefusesWhatInputActionsRefusesAtItsLine() {
        func refused(_ text: String) -> ToolConfigurationError? {
            do { _ = try InputActionsSettings.read(text, file: "config.yaml"); return nil } catch { return error }
        }
        let gestures = "touchpad:\n  gestures:\n    - type: swipe\n"
        #expect(refused(gestures + "      direction: leftt")?.line == 4)
        #expect(refused(gestures + "      direction: leftt")?.tool == .inputactions)
        #expect(refused(gestures + "      direction: left\n      threshold: far")?.line == 5)
        #expect(refused(gestures + "      fingers: three\n      direction: left")?.line == 4)
        #expect(refused(gestures)?.line == 3, "a swipe needs a direction")
        #expect(refused("touchpad:\n  gestures:\n    - type: wiggle")?.line == 3)
        #expect(refused("touchpad:\n  speed: {events: 3}")?.line == 1, "gestures is required")
        #expect(refused("device_rules:\n  - swipe:\n      angle_tolerance: 50")?.line == 3)
        #expect(refused("device_rules:\n  - motion_threshold_3: ten")?.line == 2)
        #expect(refused(gestures + "      direction: left\n      actions:\n        - on: finish")?.line == 6)
        #expect(refused(gestures + "      direction: left\n      actions:\n        - on: end\n          interval: 2")?.line == 7)
        #expect(refused("touchpad:\n  gestures: []\ntouchpad: {}")?.line == 3)
        #expect(refused("- a")?.line == 1)
        // Keys InputActions does not use only warn: taken.
        #expect(refused("touchpad:\n  gestures: []\n  colour: red\nautoreload: true") == nil)
    }
}
