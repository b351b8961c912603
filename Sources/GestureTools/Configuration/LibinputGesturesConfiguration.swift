extension LibinputGesturesSettings {
    /// Reads libinput-gestures.conf as the script's `get_conf` does: stripped lines, blank lines
    /// and lines starting with `#` skipped (no inline comments, no continuation), a case-sensitive
    /// keyword (one trailing `:` allowed) of `gesture`, `device`, `swipe_threshold` (an integer
    /// >= 0) or `timeout` (a number >= 0). The first bad line is refused, as the script refuses it.
    package static func read(_ text: String, file: String) throws(ToolConfigurationError) -> LibinputGesturesSettings {
        var settings = LibinputGesturesSettings()
        func fail(_ line: Int, _ reason: ToolConfigurationError.Reason) -> ToolConfigurationError {
            ToolConfigurationError(tool: .libinputGestures, file: file, line: line, reason: reason)
        }
        for (index, raw) in ConfigurationLines.split(text).enumerated() {
            let number = index + 1
            let line = raw.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            var keyword = String(fields[0])
            if keyword.hasSuffix(":") { keyword.removeLast() }
            let rest = fields.count > 1 ? fields[1].trimmingWhitespace : ""
            switch keyword {
            case "gesture":
                let parts = rest.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 3 else { throw fail(number, .malformed(expected: "gesture TYPE MOTION [FINGERS] COMMAND")) }
                let type = parts[0].lowercased(), motion = parts[1].lowercased()
                let motions: [String]
                switch type {
                case "swipe": motions = ["left", "right", "up", "down", "left_up", "right_up", "left_down", "right_down"]
                case "pinch": motions = ["in", "out", "clockwise", "anticlockwise"]
                case "hold": motions = ["on"]
                default: throw fail(number, .unknown("gesture \(type)", expected: "swipe, pinch or hold"))
                }
                var holdDelay: Double? = type == "hold" ? 0 : nil
                if type == "hold" && motion.hasPrefix("on+") {
                    guard let delay = Double(motion.dropFirst(3)), delay.isFinite, delay >= 0 else {
                        throw fail(number, .badValue(setting: "hold delay", value: String(motion.dropFirst(3)), expected: "an integer or float"))
                    }
                    holdDelay = delay
                } else if !motions.contains(motion) {
                    throw fail(number, .unknown("\(type) motion \(motion)", expected: motions.joined(separator: ", ")))
                }
                // A finger count is a single digit; anything else begins the command.
                let tail = parts[2].split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
                var fingers: Int?
                var command = parts[2]
                if let first = tail.first, first.count == 1, let digit = Int(first) {
                    fingers = digit
                    command = tail.count > 1 ? tail[1] : ""
                }
                guard !command.trimmingWhitespace.isEmpty else { throw fail(number, .missingValue(setting: "the gesture's command")) }
                if type == "swipe" && motion.contains("_") { settings.obliqueSwipes = true }
                if type == "pinch" && motion.contains("clock") { settings.rotations = true }
                settings.gestures.append(LibinputGesturesBinding(type: type, motion: motion, fingers: fingers, line: number,
                                                                 holdDelay: holdDelay))
            case "device":
                guard !rest.isEmpty else { throw fail(number, .missingValue(setting: "device")) }
            case "swipe_threshold":
                guard let value = Int(rest) else { throw fail(number, .badValue(setting: keyword, value: rest, expected: "an integer")) }
                guard value >= 0 else { throw fail(number, .badValue(setting: keyword, value: rest, expected: "an integer >= 0")) }
                settings.swipeThreshold = value
            case "timeout":
                guard let value = Double(rest), value.isFinite else {
                    throw fail(number, .badValue(setting: keyword, value: rest, expected: "a number of seconds"))
                }
                guard value >= 0 else { throw fail(number, .badValue(setting: keyword, value: rest, expected: "a number >= 0")) }
                settings.timeoutSeconds = value
            default:
                throw fail(number, .unknown(keyword, expected: "gesture, device, swipe_threshold or timeout"))
            }
        }
        return settings
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
