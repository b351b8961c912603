import SettingsTable

/// Writes a tool's tuned thresholds in its own format: lisgd's flags in a file (comment lines
/// starting with `#`, then flags), touchegg.conf XML, libinput-gestures.conf lines, fusuma's config.yml, InputActions' config.yaml. Given the
/// user's file, only the tuned values change (the first word after a lisgd flag, the text of a
/// touchegg `<property>`, the value of a libinput-gestures line) and a setting the file lacks is
/// added; everything else is kept byte for byte, but for the comment lines saying what was measured,
/// which begin with `pinchlab tune:` and replace those of an earlier run.
package enum ToolConfigurationWriter {
    /// The mark of the comment lines this writes.
    package static let mark = "pinchlab tune:"

    /// The file for `settings`, changing in `original` (nil: a new file) the values of `keys` (as
    /// `ToolTuner` names them), with `header` as comment lines.
    package static func write(_ settings: GestureToolSettings, keys: [String], original: String?, header: [String]) -> String {
        switch settings {
        case .lisgd(let s): return lisgd(s, keys: keys, original: original, header: header)
        case .touchegg(let s): return touchegg(s, keys: keys, original: original, header: header)
        case .libinputGestures(let s): return libinputGestures(s, keys: keys, original: original, header: header)
        case .fusuma(let s): return fusuma(s, keys: keys, original: original, header: header)
        case .inputactions(let s): return inputActions(s, keys: keys, original: original, header: header)
        default: return original ?? ""
        }
    }

    /// A number as the tools read it: a whole number without a point (`SettingRange.text`).
    package static func number(_ value: Double) -> String { SettingRange.text(value) }

    // MARK: lisgd

    static func lisgd(_ s: LisgdSettings, keys: [String], original: String?, header: [String]) -> String {
        let values: [String: Int] = ["-t": s.threshold, "-r": s.degreesLeniency, "-m": s.timeoutMS, "-T": s.pressedThreshold]
        guard let original else {
            let flags = ["-t", "-r", "-m"].map { "\($0) \(values[$0]!)" }.joined(separator: " ")
            return written([flags, ""], header: header, endingLike: nil)  // "": the flags' line is ended
        }
        var lines = editableLines(original).filter { !isEarlierNote($0) }
        var missing: [String] = []
        for key in keys {
            guard let value = values[key] else { continue }
            // Every occurrence: lisgd (and `LisgdSettings.read`) take the last one a flag is given.
            var found = false
            for i in lines.indices where !lines[i].trimmingWhitespace.hasPrefix("#") {
                let words = (try? ShellWords.words(lines[i])) ?? []
                for w in words.indices.reversed() where words[w].text == key && w + 1 < words.count {
                    lines[i].replaceSubrange(words[w + 1].range, with: String(value))
                    found = true
                }
            }
            if !found { missing.append("\(key) \(value)") }
        }
        if !missing.isEmpty {
            lines.insert(missing.joined(separator: " "), at: endOfFile(lines))
        }
        return written(lines, header: header, endingLike: original)
    }

    // MARK: touchegg

    static func touchegg(_ s: ToucheggSettings, keys: [String], original: String?, header: [String]) -> String {
        var notes = header
        if s.daemonStartThreshold != nil || s.daemonFinishThreshold != nil {
            let start = s.daemonStartThreshold.map(number) ?? "START"
            let finish = s.daemonFinishThreshold.map(number) ?? "FINISH"
            var note = "the daemon's thresholds are its arguments, not this file's: run touchegg --daemon \(start) \(finish)"
            if s.daemonStartThreshold == nil { note += " (START: your device's own, 1% of its smaller side)" }
            if s.daemonFinishThreshold == nil { note += " (FINISH: your device's own, 9% of its width)" }
            notes.append(note)
        }
        // Strict XML allows no "--" in a comment; touchegg's pugixml (and MiniXML) read up to "-->",
        // so the daemon's command line is written as the user types it.
        let comments = notes.map { "<!-- \(mark) \($0) -->" }
        let threshold = String(s.actionExecuteThreshold)
        guard var text = original else {
            return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + comments.joined(separator: "\n") + "\n<touchégg>\n  <settings>\n"
                + "    <property name=\"action_execute_threshold\">\(threshold)</property>\n  </settings>\n</touchégg>\n"
        }
        let newline = ConfigurationLines.ending(of: text)
        text = ConfigurationLines.split(text).filter { !$0.trimmingWhitespace.hasPrefix("<!-- \(mark)") }.joined(separator: newline)
        if keys.contains("action_execute_threshold") {
            if let open = text.firstRange(of: "name=\"action_execute_threshold\"") ?? text.firstRange(of: "name='action_execute_threshold'"),
               let tagEnd = text[open.upperBound...].firstIndex(of: ">"),
               let close = text[tagEnd...].firstRange(of: "</property>") {
                text.replaceSubrange(text.index(after: tagEnd)..<close.lowerBound, with: threshold)
            } else {
                let property = "<property name=\"action_execute_threshold\">\(threshold)</property>"
                if let settings = text.firstRange(of: "<settings>") {
                    text.insert(contentsOf: "\n    " + property, at: settings.upperBound)
                } else if let root = rootTagEnd(text) {
                    text.insert(contentsOf: "\n  <settings>\n    \(property)\n  </settings>", at: root)
                }
            }
        }
        // The comments after the XML declaration (nothing may come before it).
        var at = text.startIndex
        if text.hasPrefix("<?"), let end = text.firstRange(of: "?>") {
            at = text[end.upperBound...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
            if at == text.endIndex && !text.hasSuffix("\n") { text += "\n"; at = text.endIndex }
        }
        if !comments.isEmpty { text.insert(contentsOf: comments.joined(separator: newline) + newline, at: at) }
        return text
    }

    /// Just after the root element's opening tag: the first `<` that opens neither a declaration nor a comment.
    static func rootTagEnd(_ text: String) -> String.Index? {
        var i = text.startIndex
        while let lt = text[i...].firstIndex(of: "<") {
            if text[lt...].hasPrefix("<?") || text[lt...].hasPrefix("<!") {
                guard let gt = text[lt...].firstIndex(of: ">") else { return nil }
                i = text.index(after: gt)
                continue
            }
            return text[lt...].firstIndex(of: ">").map { text.index(after: $0) }
        }
        return nil
    }

    // MARK: libinput-gestures

    static func libinputGestures(_ s: LibinputGesturesSettings, keys: [String], original: String?, header: [String]) -> String {
        let values: [String: String] = ["swipe_threshold": String(s.swipeThreshold), "timeout": number(s.timeoutSeconds)]
        var lines = editableLines(original).filter { !isEarlierNote($0) }
        for key in keys {
            guard let value = values[key] else { continue }
            var found = false
            for i in lines.indices {
                let line = lines[i]
                let indent = line.prefix { $0 == " " || $0 == "\t" }
                let rest = line.dropFirst(indent.count)
                let keyword = rest.prefix { $0 != " " && $0 != "\t" }
                guard keyword == key || keyword == key + ":" else { continue }
                lines[i] = String(indent) + keyword + " " + value
                found = true
            }
            if !found {
                lines.insert("\(key) \(value)", at: endOfFile(lines))
            }
        }
        return written(lines, header: header, endingLike: original)
    }

    // MARK: fusuma

    /// config.yml: the `threshold:` mapping's `swipe:`/`pinch:`/`hold:` values (keys `threshold.swipe`
    /// ...), changed where the block has them, added at its top where not; a `threshold:` block
    /// appended when the file has none. A flow-style `threshold: {...}` line is rewritten as a block.
    static func fusuma(_ s: FusumaSettings, keys: [String], original: String?, header: [String]) -> String {
        var lines = editableLines(original).filter { !isEarlierNote($0) }
        let gestures = keys.compactMap { key -> (String, String)? in
            guard key.hasPrefix("threshold."), let g = FusumaSettings.Gesture(rawValue: String(key.dropFirst(10))) else { return nil }
            return (g.rawValue, number(s.threshold[g] ?? 1))
        }
        guard !gestures.isEmpty else { return written(lines, header: header, endingLike: original) }
        func isBlockLine(_ line: String) -> Bool { line.isEmpty || line.first == " " || line.first == "\t" || line.hasPrefix("#") }
        if let head = lines.firstIndex(where: { $0.hasPrefix("threshold:") }) {
            let after = lines[head].dropFirst("threshold:".count).trimmingWhitespace
            if !after.isEmpty && !after.hasPrefix("#") {
                // Flow style: the whole mapping as a block, every gesture the file set kept.
                let all = FusumaSettings.Gesture.allCases.compactMap { g in s.threshold[g].map { "  \(g.rawValue): \(number($0))" } }
                lines.replaceSubrange(head...head, with: ["threshold:"] + all)
            } else {
                var end = head + 1
                while end < lines.count && isBlockLine(lines[end]) { end += 1 }
                let entries = (head + 1..<end).filter { !lines[$0].trimmingWhitespace.isEmpty && !lines[$0].trimmingWhitespace.hasPrefix("#") }
                let indent = entries.first.map { String(lines[$0].prefix { $0 == " " || $0 == "\t" }) } ?? "  "
                for (gesture, value) in gestures {
                    if let at = entries.first(where: { lines[$0].hasPrefix(indent + gesture + ":") }),
                       let changed = replacingBlockValue(lines[at], name: gesture, with: value) {
                        lines[at] = changed
                    } else {
                        lines.insert(indent + gesture + ": " + value, at: head + 1)
                    }
                }
            }
        } else {
            lines.insert(contentsOf: ["threshold:"] + gestures.map { "  \($0.0): \($0.1)" }, at: endOfFile(lines))
        }
        return written(lines, header: header, endingLike: original)
    }

    // MARK: InputActions

    /// config.yaml: a tuned device property (`motion_threshold_3`, `swipe.angle_tolerance`) is
    /// changed on its line in the first `device_rules:` item for a touchpad that sets it in block
    /// style (the first rule that sets a property wins); the others are set in one rule,
    /// `conditions: $touchpad`, put first in `device_rules:` (a block added at the end when the
    /// file has none), so that it wins over any rule below it.
    static func inputActions(_ s: InputActionsSettings, keys: [String], original: String?, header: [String]) -> String {
        // An earlier run's comment lines are dropped only at the end: the rules' line numbers are
        // those of the user's file.
        var lines = editableLines(original)
        let root = (try? MiniYAML.parse(original ?? ""))?.first
        var added: [(name: String, value: String)] = []
        for key in keys {
            guard let value = s[deviceProperty: key].map(number) else { continue }
            if let line = InputActionsSettings.firstRuleLine(setting: key, in: root), line <= lines.count,
               let changed = replacingBlockValue(lines[line - 1], name: String(key.split(separator: ".").last!), with: value) {
                lines[line - 1] = changed
            } else {
                added.append((key, value))
            }
        }
        if !added.isEmpty {
            let nested = added.filter { $0.name.contains(".") }
            func rule(_ indent: String) -> [String] {
                var rule = ["\(indent)- conditions: $touchpad"] + added.filter { !$0.name.contains(".") }.map { "\(indent)  \($0.name): \($0.value)" }
                if !nested.isEmpty { rule += ["\(indent)  swipe:"] + nested.map { "\(indent)    \($0.name.dropFirst("swipe.".count)): \($0.value)" } }
                return rule
            }
            if let head = lines.firstIndex(where: { $0.hasPrefix("device_rules:") }) {
                let after = lines[head].dropFirst("device_rules:".count).trimmingWhitespace
                if after.isEmpty || after.hasPrefix("#") {
                    let first = lines[(head + 1)...].first { !$0.trimmingWhitespace.isEmpty && !$0.trimmingWhitespace.hasPrefix("#") }
                    let indent = first.flatMap { line in line.trimmingWhitespace.hasPrefix("-") ? String(line.prefix { $0 == " " }) : nil } ?? "  "
                    lines.insert(contentsOf: rule(indent), at: head + 1)
                } else if after.hasPrefix("[") {
                    // Flow style (`device_rules: []`, `[{...}]`, one line: MiniYAML reads no other):
                    // the rule goes first in the list, in flow style too.
                    var items = added.filter { !$0.name.contains(".") }.map { "\($0.name): \($0.value)" }
                    if !nested.isEmpty { items.append("swipe: {" + nested.map { "\($0.name.dropFirst("swipe.".count)): \($0.value)" }.joined(separator: ", ") + "}") }
                    let open = lines[head].firstIndex(of: "[")!
                    let empty = lines[head][lines[head].index(after: open)...].trimmingWhitespace.hasPrefix("]")
                    lines[head].insert(contentsOf: "{conditions: $touchpad, " + items.joined(separator: ", ") + "}" + (empty ? "" : ", "),
                                       at: lines[head].index(after: open))
                }
            } else {
                lines.insert(contentsOf: ["device_rules:"] + rule("  "), at: endOfFile(lines))
            }
        }
        return written(lines.filter { !isEarlierNote($0) }, header: header, endingLike: original)
    }

    /// `line` with the value of its block entry `name: value` replaced, a trailing comment kept; nil
    /// when the line is not such an entry (flow style, a multi-line value).
    static func replacingBlockValue(_ line: String, name: String, with value: String) -> String? {
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        var body = line.dropFirst(indent.count)
        var dash = ""
        if body.hasPrefix("- ") { dash = "- "; body = body.dropFirst(2) }
        guard body.hasPrefix(name + ":") else { return nil }
        let rest = body.dropFirst(name.count + 1)
        // The comment keeps the blanks before it: only the value's own characters change.
        let beforeComment = rest.firstRange(of: " #").map { rest[..<$0.lowerBound] } ?? rest
        let old = beforeComment.trimmingWhitespace
        let valueEnd = beforeComment.lastIndex { $0 != " " && $0 != "\t" }.map { rest.index(after: $0) } ?? rest.startIndex
        guard !old.isEmpty, !old.hasPrefix("{"), !old.hasPrefix("["), !old.hasPrefix("|"), !old.hasPrefix(">") else { return nil }
        let kept = String(rest[valueEnd...])
        return "\(indent)\(dash)\(name): \(value)\(kept)"
    }

    // MARK: diff

    /// A unified diff of `old` and `new` (whole lines, 3 of context), both sides labelled `PATH`
    /// (`patch PATH < FILE` applies it); empty when they are the same.
    package static func diff(old: String, new: String, path: String) -> String {
        guard old != new else { return "" }
        // Lines without their newlines; a last line without one is marked as diff marks it.
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.hasSuffix("\n") || text.isEmpty { lines.removeLast() }
            return lines
        }
        let a = lines(old), b = lines(new)
        let aOpen = !old.isEmpty && !old.hasSuffix("\n"), bOpen = !new.isEmpty && !new.hasSuffix("\n")
        let noNewline = "\\ No newline at end of file\n"
        // Longest common subsequence, then the edit script.
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(Int, Int), del(Int), add(Int) }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] { ops.append(.same(i, j)); i += 1; j += 1 }
            // A changed line reads as its removal, then its replacement.
            else if i < a.count && (j == b.count || lcs[i + 1][j] >= lcs[i][j + 1]) { ops.append(.del(i)); i += 1 }
            else { ops.append(.add(j)); j += 1 }
        }
        let changed = ops.indices.filter { if case .same = ops[$0] { false } else { true } }
        var out = "--- \(path)\n+++ \(path)\n"
        var k = 0
        while k < changed.count {
            let lo = max(0, changed[k] - 3)
            var hi = min(ops.count - 1, changed[k] + 3)
            while k + 1 < changed.count && changed[k + 1] - 3 <= hi + 1 { k += 1; hi = min(ops.count - 1, changed[k] + 3) }
            k += 1
            var oldCount = 0, newCount = 0
            // Line numbers of the hunk's first line in each file.
            var oi = 0, nj = 0
            for op in ops[..<lo] {
                switch op {
                case .same: oi += 1; nj += 1
                case .del: oi += 1
                case .add: nj += 1
                }
            }
            let oldStart = oi + 1, newStart = nj + 1
            var body = ""
            for op in ops[lo...hi] {
                switch op {
                case .same(let x, let y):
                    if (x == a.count - 1 && aOpen) != (y == b.count - 1 && bOpen) {
                        // The same text, one with a newline and one without: a change.
                        body += "-\(a[x])\n" + (aOpen && x == a.count - 1 ? noNewline : "")
                        body += "+\(b[y])\n" + (bOpen && y == b.count - 1 ? noNewline : "")
                    } else {
                        body += " \(a[x])\n" + (aOpen && x == a.count - 1 ? noNewline : "")
                    }
                    oldCount += 1; newCount += 1
                case .del(let x): body += "-\(a[x])\n" + (aOpen && x == a.count - 1 ? noNewline : ""); oldCount += 1
                case .add(let y): body += "+\(b[y])\n" + (bOpen && y == b.count - 1 ? noNewline : ""); newCount += 1
                }
            }
            out += "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n" + body
        }
        return out
    }
}
