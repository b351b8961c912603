extension FusumaSettings {
    /// Reads fusuma's config.yml as fusuma 3.x reads it (lib/fusuma/config.rb): YAML, possibly
    /// several documents, of which the first without a `context:` key is the keymap (the others are
    /// plugins' contexts); a duplicate key is refused (`YamlDuplicationChecker`); a keymap that is
    /// not a mapping is refused ("Invalid config.yml"). The settings that decide what fires are read:
    /// `threshold:` and `interval:` per gesture, and `threshold:`/`interval:` under a gesture's
    /// index (`swipe: 3: left:`, `pinch: [2:] in:`, `rotate: [2:] clockwise:`, `hold: 4:`).
    /// Anything else, misspelt directions included, fusuma never looks up, and neither does this.
    /// Where the file is silent the multiplier is 1 (a user's file replaces the bundled one whole).
    /// A threshold or interval that is not a number is refused at its line: fusuma takes it and
    /// stops on the first gesture that reads it (`String can't be coerced into Integer`).
    package static func read(_ text: String, file: String) throws(ToolConfigurationError) -> FusumaSettings {
        func fail(_ line: Int, _ reason: ToolConfigurationError.Reason) -> ToolConfigurationError {
            ToolConfigurationError(tool: .fusuma, file: file, line: line, reason: reason)
        }
        let documents: [YAMLNode]
        do {
            documents = try MiniYAML.parse(text)
        } catch {
            throw fail(error.line, .malformed(expected: error.expected))
        }
        guard let keymap = documents.first(where: { $0.entry("context") == nil }) else {
            throw fail(documents.first?.line ?? 0, .malformed(expected: "a keymap: a mapping of gestures (swipe:, pinch:, threshold:...)"))
        }
        guard let entries = keymap.entries else {
            throw fail(keymap.line, .malformed(expected: "a mapping of gestures (swipe:, pinch:, threshold:...), not \(keymap.described)"))
        }

        /// A multiplier: a number (YAML 1.1's ints and floats), unquoted.
        func number(_ node: YAMLNode, _ setting: String) throws(ToolConfigurationError) -> Double {
            if let text = node.plain, let value = Self.yamlNumber(text) { return value }
            throw fail(node.line, .badValue(setting: setting, value: node.text ?? node.described, expected: "a number"))
        }

        var settings = FusumaSettings()
        for entry in entries {
            if entry.key == "threshold" || entry.key == "interval" {
                // `threshold: swipe: 0.5`: fusuma searches [threshold, gesture]; other keys are never read.
                for inner in entry.value.entries ?? [] {
                    guard let gesture = Gesture(rawValue: inner.key) else { continue }
                    let value = try number(inner.value, "\(entry.key).\(inner.key)")
                    if entry.key == "threshold" { settings.threshold[gesture] = value } else { settings.interval[gesture] = value }
                }
                continue
            }
            guard let gesture = Gesture(rawValue: entry.key) else { continue }
            // Under the gesture: finger counts (integer keys), or for pinch and rotate the direction itself.
            for level in entry.value.entries ?? [] {
                var indexes: [(String, YAMLNode)] = []
                if !level.quotedKey, let fingers = Int(level.key) {
                    if gesture == .hold {
                        indexes.append(("hold.\(fingers)", level.value))
                    } else {
                        for direction in level.value.entries ?? [] where Self.directions(gesture).contains(direction.key) {
                            indexes.append(("\(gesture.rawValue).\(fingers).\(direction.key)", direction.value))
                        }
                    }
                } else if gesture == .pinch || gesture == .rotate, Self.directions(gesture).contains(level.key) {
                    indexes.append(("\(gesture.rawValue).\(level.key)", level.value))
                }
                for (index, node) in indexes {
                    if let threshold = node["threshold"] {
                        settings.indexThreshold[index] = try number(threshold, index + ".threshold")
                    }
                    if let interval = node["interval"] {
                        settings.indexInterval[index] = try number(interval, index + ".interval")
                    }
                }
            }
        }
        return settings
    }

    /// The direction keys fusuma's oneshot indexes use for a gesture.
    static func directions(_ gesture: Gesture) -> [String] {
        switch gesture {
        case .swipe: ["left", "right", "up", "down"]
        case .pinch: ["in", "out"]
        case .rotate: ["clockwise", "counterclockwise"]
        case .hold: []
        }
    }

    /// A plain scalar Ruby's YAML reads as an Integer or a Float (Psych's `ScalarScanner`, YAML
    /// 1.1): a sign, then `0b` binary, `0x` hexadecimal, a leading `0` octal (`017` is 15; `0o17` is
    /// text), or decimal digits with `_` or `,` between them (`1,000` is 1000); a float needs its
    /// point, and an exponent its sign (`1.0e+3`; `1e3` is text, which fusuma then refuses); `.inf`.
    static func yamlNumber(_ text: String) -> Double? {
        var body = Substring(text)
        var sign = 1.0
        if let first = body.first, first == "+" || first == "-" { sign = first == "-" ? -1 : 1; body = body.dropFirst() }
        if [".inf", ".Inf", ".INF"].contains(body) { return sign * .infinity }
        let bare = String(body.filter { $0 != "_" && $0 != "," })
        if body.wholeMatch(of: /0b[01_,]+/) != nil { return Int(bare.dropFirst(2), radix: 2).map { sign * Double($0) } }
        if body.wholeMatch(of: /0x[0-9a-fA-F_,]+/) != nil { return Int(bare.dropFirst(2), radix: 16).map { sign * Double($0) } }
        if body.wholeMatch(of: /0[0-7_,]+/) != nil { return Int(bare.dropFirst(), radix: 8).map { sign * Double($0) } }
        if body.wholeMatch(of: /0|[1-9](?:[0-9]|,[0-9]|_[0-9])*/) != nil { return Int(bare).map { sign * Double($0) } }
        if body != ".", body.wholeMatch(of: /(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?/) != nil {
            return Double(bare).map { sign * $0 }
        }
        return nil
    }
}
