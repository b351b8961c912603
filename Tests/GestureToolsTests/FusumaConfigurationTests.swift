@testable import GestureTools
import Testing

/// fusuma's config.yml read as fusuma 3.x reads it (lib/fusuma/config.rb); a bad one refused at its line.
@Suite struct FusumaConfigurationTests {
    @Test func fusumaReadsThresholdsAndIntervalsWhereFusumaLooksThemUp() throws {
        let text = """
        swipe:
          3:
            left:
              command: "xdotool key alt+Right"
              threshold: 0.5
              interval: 0.75
            begin:
              command: "echo begin"
          4:
            up: {command: "x", threshold: 2}
        pinch:
          in:
            command: "xdotool key ctrl+minus"
            threshold: 0.8
          2:
            out: {command: "y", threshold: 1.5}
        hold:
          4:
            command: "z"
            threshold: 0.2
        threshold:
          swipe: 0.3
          pinch: 0.1
          unknown: 7
        interval:
          swipe: 1
        plugin:
          inputs:
            libinput_command_input:
              enable-tap: true
        sweep: {3: {left: {threshold: nonsense}}}
        ---
        context: {application: Firefox}
        swipe: {3: {left: {threshold: 9}}}
        """
        let s = try FusumaSettings.read(text, file: "config.yml")
        #expect(s.threshold == [.swipe: 0.3, .pinch: 0.1])
        #expect(s.interval == [.swipe: 1])
        #expect(s.indexThreshold == ["swipe.3.left": 0.5, "swipe.4.up": 2, "pinch.in": 0.8, "pinch.2.out": 1.5, "hold.4": 0.2])
        #expect(s.indexInterval == ["swipe.3.left": 0.75])
        #expect(s.thresholdFactor(.pinch, fingers: 3, direction: "in").key == "pinch.in.threshold")
        #expect(s.thresholdFactor(.swipe, fingers: 3, direction: "right").key == "threshold.swipe")
        #expect(abs(s.intervalSeconds(.swipe, fingers: 3, direction: "left") - 0.225) < 1e-12)
        // The keymap is the first document without a context, wherever it is.
        let later = try FusumaSettings.read("context: {a: b}\nthreshold: {swipe: 9}\n---\nthreshold: {swipe: 2}", file: "c")
        #expect(later.threshold[.swipe] == 2)
    }

    @Test func fusumaRefusesABadFileAtItsLine() {
        func refused(_ text: String) -> ToolConfigurationError? {
            do { _ = try FusumaSettings.read(text, file: "config.yml"); return nil } catch { return error }
        }
        let duplicate = refused("swipe:\n  3:\n    left: {command: a}\n    left: {command: b}")
        #expect(duplicate?.line == 4)
        #expect(duplicate?.tool == .fusuma)
        #expect(refused("threshold:\n  swipe: fast")?.reason == .badValue(setting: "threshold.swipe", value: "fast", expected: "a number"))
        #expect(refused("threshold:\n  swipe: fast")?.line == 2)
        #expect(refused("swipe:\n  3:\n    up:\n      threshold: \"0.5\"")?.line == 4)
        #expect(refused("hold:\n  4:\n    interval: [1]")?.line == 3)
        #expect(refused("- swipe\n- pinch")?.line == 1)
        #expect(refused("swipe:\n  3:\n\tleft: {}")?.line == 3)
        #expect(refused("swipe: {3: {left: {command: 'x}}}")?.reason == .malformed(expected: "the closing ' on the same line"))
        // Unknown keys and misspelt directions are never looked up: taken.
        #expect(refused("swipe:\n  3:\n    leftt: {threshold: x}\ncolour: red") == nil)
    }

    @Test func fusumaNumbersAreRubysYAMLNumbers() {
        #expect(FusumaSettings.yamlNumber("0.5") == 0.5)
        #expect(FusumaSettings.yamlNumber("1_000") == 1000)
        #expect(FusumaSettings.yamlNumber(".5") == 0.5)
        #expect(FusumaSettings.yamlNumber("-2") == -2)
        #expect(FusumaSettings.yamlNumber("0x10") == 16)
        #expect(FusumaSettings.yamlNumber("fast") == nil)
        #expect(FusumaSettings.yamlNumber("1.5x") == nil)
        #expect(FusumaSettings.yamlNumber("nan") == nil)
        // As the machine's Ruby reads them (Psych 4: `ruby -ryaml -e 'p YAML.load("x: 017")'`).
        #expect(FusumaSettings.yamlNumber("017") == 15)
        #expect(FusumaSettings.yamlNumber("0o17") == nil)
        #expect(FusumaSettings.yamlNumber("1e3") == nil)
        #expect(FusumaSettings.yamlNumber("1.0e+3") == 1000)
        #expect(FusumaSettings.yamlNumber("1,000") == 1000)
        #expect(FusumaSettings.yamlNumber("5.") == 5)
        #expect(FusumaSettings.yamlNumber(".") == nil)
    }
}
