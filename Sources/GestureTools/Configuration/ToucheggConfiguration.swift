extension ToucheggSettings {
    /// Reads touchegg.conf as touchegg's client reads it (src/config/xml-config-loader.cpp, pugixml):
    /// the root element, whatever its name (`<touchégg>` in the shipped file), its first
    /// `<settings>` child's `<property name="...">` values, untrimmed. Only
    /// `action_execute_threshold` and `animation_delay` decide anything here; `color` and
    /// `borderColor` are touchegg's too and are accepted; any other property touchegg stores and
    /// ignores, and so does this. A file that is not well-formed XML is refused at its line.
    package static func read(_ text: String, file: String) throws(ToolConfigurationError) -> ToucheggSettings {
        let root: XMLElement
        do {
            root = try MiniXML.parse(text)
        } catch {
            throw ToolConfigurationError(tool: .touchegg, file: file, line: error.line, reason: .malformed(expected: error.expected))
        }
        var settings = ToucheggSettings()
        guard let block = root.child("settings") else { return settings }
        for property in block.children where property.name == "property" {
            // pugixml gives a property without a name the name "", which touchegg stores and ignores.
            let value = property.text
            switch property.attributes["name"] ?? "" {
            case "action_execute_threshold":
                // std::stoi: leading blanks, a sign, then digits ("20.7" is 20); out of int's range
                // or no number, touchegg's fallback, 20; then clamped.
                settings.actionExecuteThreshold = max(0, min(100, Self.leadingInteger(value).flatMap { Int32(exactly: $0) }.map(Int.init) ?? 20))
            case "animation_delay":
                // std::stoull without a fallback: touchegg stops on a value that is not a number (a
                // sign is taken). It changes what is drawn, never what executes: read to refuse what
                // touchegg refuses, not kept.
                guard Self.leadingInteger(value) != nil else {
                    throw ToolConfigurationError(tool: .touchegg, file: file, line: property.line,
                                                 reason: .badValue(setting: "animation_delay", value: value, expected: "a whole number of ms"))
                }
            default:
                continue
            }
        }
        return settings
    }

    /// `std::stoi`'s reading: leading whitespace, an optional sign, at least one digit; the rest ignored.
    static func leadingInteger(_ text: String) -> Int? {
        var s = Substring(text).drop { $0.isWhitespace }
        var sign = 1
        if let first = s.first, first == "+" || first == "-" { sign = first == "-" ? -1 : 1; s = s.dropFirst() }
        let digits = s.prefix { $0.isASCII && $0.isNumber }.drop { $0 == "0" }
        guard !s.prefix(while: { $0.isASCII && $0.isNumber }).isEmpty else { return nil }
        // More digits than an Int holds is out of any range a caller takes.
        guard digits.count <= 18 else { return sign * Int.max }
        return sign * (Int(digits) ?? 0)
    }
}
