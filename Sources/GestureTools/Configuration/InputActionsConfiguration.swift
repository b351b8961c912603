extension InputActionsSettings {
    /// Reads InputActions' config.yaml as InputActions 0.9 reads it (config/ConfigLoader.cpp
    /// `createConfig`, config/parsers/core.cpp, triggers.cpp, enums.cpp; yaml-cpp, the first
    /// document): what decides a touchpad gesture is read, anything else is left alone (InputActions
    /// only warns of a key it does not use: "Property '...' does not exist or has no effect").
    ///
    /// - `device_rules:` items whose `conditions` are for a touchpad (they name `$touchpad`, or no
    ///   other kind of device; other conditions cannot be judged on a recording and are taken as
    ///   true), the first that sets a property winning: `motion_threshold`, `motion_threshold_2`,
    ///   `motion_threshold_3`, `swipe: angle_tolerance:` (0...45), `click_timeout`.
    /// - `touchpad: speed:` `events`, `swipe_threshold`, `pinch_in_threshold`, `pinch_out_threshold`,
    ///   `rotate_threshold`; `touchpad: gestures:` (required when `touchpad:` is given), each with
    ///   `type`, `fingers` (N or A-B), `direction` or a swipe's `angle: A-B` and `bidirectional`,
    ///   `threshold` (X or A-B), `speed`, and its actions' `on` and `conflicting`.
    /// With no `touchpad:` every gesture is judged as bound. A value InputActions refuses (it then
    /// loads nothing of the file) is refused at its line, with InputActions' own reason.
    package static func read(_ text: String, file: String) throws(ToolConfigurationError) -> InputActionsSettings {
        func fail(_ line: Int, _ reason: ToolConfigurationError.Reason) -> ToolConfigurationError {
            ToolConfigurationError(tool: .inputactions, file: file, line: line, reason: reason)
        }
        let root: YAMLNode
        do {
            root = try MiniYAML.parse(text).first ?? YAMLNode(value: .null, line: 1)
        } catch {
            throw fail(error.line, .malformed(expected: error.expected))
        }
        var settings = InputActionsSettings()
        if root.isNull { return settings }
        guard root.entries != nil else { throw fail(root.line, .badValue(setting: "the file", value: root.described, expected: "a map")) }

        func mapping(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> [YAMLEntry] {
            guard let entries = node.entries else { throw fail(node.line, .badValue(setting: setting, value: node.described, expected: "a map")) }
            return entries
        }
        func list(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> [YAMLNode] {
            guard let items = node.items else { throw fail(node.line, .badValue(setting: setting, value: node.described, expected: "a list")) }
            return items
        }
        func scalar(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> String {
            guard let text = node.text else { throw fail(node.line, .badValue(setting: setting, value: node.described, expected: "a scalar")) }
            return text
        }
        func number(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> Double {
            let text = try scalar(node, setting)
            guard let value = Double(text.trimmingWhitespace), value.isFinite else {
                throw fail(node.line, .badValue(setting: setting, value: text, expected: "a number"))
            }
            return value
        }
        func boolean(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> Bool {
            let text = try scalar(node, setting)
            switch text {
            case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y": return true
            case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N": return false
            default: throw fail(node.line, .badValue(setting: setting, value: text, expected: "a boolean"))
            }
        }
        /// `X` or `A-B` (config/parsers/core.cpp, the Range parser).
        func range(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> (Double, Double?) {
            let text = try scalar(node, setting).trimmingWhitespace
            if let dash = text.dropFirst().firstIndex(of: "-") {
                guard let a = Double(text[..<dash].trimmingWhitespace), let b = Double(text[text.index(after: dash)...].trimmingWhitespace),
                      a.isFinite, b.isFinite else {
                    throw fail(node.line, .badValue(setting: setting, value: text, expected: "a number or a range A-B"))
                }
                return (a, b)
            }
            guard let value = Double(text), value.isFinite else {
                throw fail(node.line, .badValue(setting: setting, value: text, expected: "a number or a range A-B"))
            }
            return (value, nil)
        }

        // Device properties. The first rule that sets one wins: InputActions applies the rules last
        // to first, each over the one after it (input/backends/InputBackend.cpp
        // `applyDeviceProperties`, `m_deviceRules | std::ranges::views::reverse`; the wiki's
        // devices/rule.md: "ignore: false # ... overrides the rule below"). Read first to last, so
        // that the first bad value is the one refused, a property set only once.
        if let rules = root["device_rules"] {
            var set: Set<String> = []
            for (n, rule) in try list(rules, "device_rules").enumerated() {
                let path = "device_rules[\(n)]"
                _ = try mapping(rule, path)
                if let conditions = rule["conditions"], !Self.forTouchpad(conditions) { continue }
                for (key, apply) in [("motion_threshold", { (s: inout InputActionsSettings, v: Double) in s.motionThreshold = v }),
                                     ("motion_threshold_2", { s, v in s.motionThreshold2 = v }),
                                     ("motion_threshold_3", { s, v in s.motionThreshold3 = v }),
                                     ("click_timeout", { s, v in s.clickTimeoutMS = v })] as [(String, (inout InputActionsSettings, Double) -> Void)] {
                    if let node = rule[key] {
                        let value = try number(node, "\(path).\(key)")
                        if set.insert(key).inserted { apply(&settings, value) }
                    }
                }
                if let swipe = rule["swipe"], let node = try mapping(swipe, "\(path).swipe").first(where: { $0.key == "angle_tolerance" })?.value {
                    let value = try number(node, "\(path).swipe.angle_tolerance")
                    guard value >= 0 && value <= 45 else {
                        throw fail(node.line, .badValue(setting: "\(path).swipe.angle_tolerance", value: node.text ?? "",
                                                        expected: "a value between 0 and 45"))
                    }
                    if set.insert("swipe.angle_tolerance").inserted { settings.angleTolerance = value }
                }
            }
        }

        guard let touchpad = root["touchpad"] else { return settings }
        _ = try mapping(touchpad, "touchpad")
        if let speed = touchpad["speed"] {
            for entry in try mapping(speed, "touchpad.speed") {
                let setting = "touchpad.speed.\(entry.key)"
                switch entry.key {
                case "events":
                    let text = try scalar(entry.value, setting)
                    guard let events = UInt32(text.trimmingWhitespace) else {
                        throw fail(entry.value.line, .badValue(setting: setting, value: text, expected: "a 32-bit unsigned integer"))
                    }
                    settings.speed.events = Int(events)
                case "swipe_threshold": settings.speed.swipeThreshold = try number(entry.value, setting)
                case "pinch_in_threshold": settings.speed.pinchInThreshold = try number(entry.value, setting)
                case "pinch_out_threshold": settings.speed.pinchOutThreshold = try number(entry.value, setting)
                case "rotate_threshold": settings.speed.rotateThreshold = try number(entry.value, setting)
                default: continue
                }
            }
        }
        guard let gestures = touchpad["gestures"] else {
            throw fail(root.entry("touchpad")?.line ?? touchpad.line, .missingValue(setting: "touchpad.gestures (a required property)"))
        }
        settings.triggers = []
        for (n, node) in try list(gestures, "touchpad.gestures").enumerated() {
            let path = "touchpad.gestures[\(n)]"
            _ = try mapping(node, path)
            guard let typeNode = node["type"] else { throw fail(node.line, .missingValue(setting: "\(path).type (a required property)")) }
            let type = try scalar(typeNode, "\(path).type")
            let kind: InputActionsTrigger.Kind
            switch type {
            case "swipe": kind = .swipe
            case "pinch": kind = .pinch
            case "rotate": kind = .rotate
            case "hold", "press": kind = .hold
            case "click", "tap":
                settings.hasClickOrTapTrigger = true
                continue
            case "circle", "stroke":
                continue
            default:
                throw fail(typeNode.line, .unknown("trigger '\(type)'", expected: "a touchpad trigger: circle, click, hold, pinch, press, rotate, stroke, swipe, tap"))
            }
            var trigger = InputActionsTrigger(kind: kind, line: node.line)
            if let fingers = node["fingers"] {
                let (a, b) = try range(fingers, "\(path).fingers")
                // Whole counts InputActions keeps in 32 bits: 1e20 fingers is no count, and no crash.
                guard let low = UInt32(exactly: a), let high = UInt32(exactly: b ?? a), high >= low else {
                    throw fail(fingers.line, .badValue(setting: "\(path).fingers", value: fingers.text ?? "", expected: "a finger count N or A-B"))
                }
                trigger.fingers = Int(low)...Int(high)
            }
            let words: [String]
            switch kind {
            case .swipe: words = InputActionsTrigger.swipeDirections + InputActionsTrigger.bidirectionalSwipes.keys.sorted() + ["any"]
            case .pinch: words = ["in", "out", "any"]
            case .rotate: words = ["clockwise", "counterclockwise", "any"]
            case .hold: words = []
            }
            if kind == .swipe, let angle = node["angle"] {
                let (a, b) = try range(angle, "\(path).angle")
                guard let b else { throw fail(angle.line, .badValue(setting: "\(path).angle", value: angle.text ?? "", expected: "a range A-B")) }
                guard a >= 0, a <= 360, b >= 0, b <= 360 else {
                    throw fail(angle.line, .badValue(setting: "\(path).angle", value: angle.text ?? "", expected: "angles from 0 to 360 (A above B wraps through 0)"))
                }
                trigger.angle = InputActionsTrigger.AngleRange(from: a, to: b)
                if let both = node["bidirectional"] { trigger.bidirectional = try boolean(both, "\(path).bidirectional") }
            } else if !words.isEmpty {
                guard let directionNode = node["direction"] else {
                    throw fail(node.line, .missingValue(setting: "\(path).direction (a required property)"))
                }
                let direction = try scalar(directionNode, "\(path).direction")
                guard words.contains(direction) else {
                    throw fail(directionNode.line, .badValue(setting: "\(path).direction", value: direction,
                                                             expected: "a \(kind.rawValue) direction: " + words.joined(separator: ", ")))
                }
                trigger.direction = direction
            }
            if let threshold = node["threshold"] {
                let (low, high) = try range(threshold, "\(path).threshold")
                trigger.thresholdMin = low
                trigger.thresholdMax = high
            }
            if let speed = node["speed"] {
                let text = try scalar(speed, "\(path).speed")
                guard let value = InputActionsTrigger.Speed(rawValue: text) else {
                    throw fail(speed.line, .badValue(setting: "\(path).speed", value: text, expected: "fast, slow or any"))
                }
                trigger.speed = value
            }
            trigger.actsOnEnd = false
            if let actions = node["actions"] {
                for (m, action) in try list(actions, "\(path).actions").enumerated() {
                    let at = "\(path).actions[\(m)]"
                    _ = try mapping(action, at)
                    var on = "end"
                    if let onNode = action["on"] {
                        on = try scalar(onNode, "\(at).on")
                        guard ["begin", "update", "end", "cancel", "end_cancel", "tick"].contains(on) else {
                            throw fail(onNode.line, .badValue(setting: "\(at).on", value: on, expected: "begin, update, end, cancel, end_cancel or tick"))
                        }
                    }
                    if let interval = action["interval"], !["update", "tick"].contains(on) {
                        throw fail(interval.line, .unknown("\(at).interval", expected: "an interval only on update and tick actions"))
                    }
                    if let threshold = action["threshold"], on == "begin" {
                        throw fail(threshold.line, .unknown("\(at).threshold", expected: "no threshold on a begin action"))
                    }
                    if let conflicting = action["conflicting"], try !boolean(conflicting, "\(at).conflicting") { continue }
                    if ["begin", "update", "tick"].contains(on) { trigger.actsOnBegin = true }
                    if ["end", "end_cancel"].contains(on) { trigger.actsOnEnd = true }
                }
            }
            settings.triggers.append(trigger)
        }
        return settings
    }

    /// Whether a device rule's `conditions` may be for a touchpad: they name `$touchpad` (not
    /// negated), or name no kind of device at all (a `$name` match, say, taken as the recording's).
    /// The line of the value `read` takes for a device property (`motion_threshold_3`,
    /// `swipe.angle_tolerance`): the first `device_rules:` item for a touchpad that sets it.
    static func firstRuleLine(setting name: String, in root: YAMLNode?) -> Int? {
        for rule in root?["device_rules"]?.items ?? [] where rule.entries != nil {
            if let conditions = rule["conditions"], !forTouchpad(conditions) { continue }
            let value = name.hasPrefix("swipe.") ? rule["swipe"]?[String(name.dropFirst("swipe.".count))] : rule[name]
            if let value { return value.line }
        }
        return nil
    }

    static func forTouchpad(_ conditions: YAMLNode) -> Bool {
        func texts(_ node: YAMLNode) -> [String] {
            switch node.value {
            case .null: []
            case .scalar(let text, _): [text]
            case .sequence(let items): items.flatMap(texts)
            case .mapping(let entries): entries.flatMap { [$0.key] + texts($0.value) }
            }
        }
        let all = texts(conditions).joined(separator: " ")
        if all.contains("!$touchpad") { return false }
        if all.contains("$touchpad") { return true }
        return !["$mouse", "$keyboard", "$touchscreen", "$pointer"].contains { all.contains($0) }
    }
}
