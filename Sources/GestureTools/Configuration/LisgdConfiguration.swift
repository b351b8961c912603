extension LisgdSettings {
    /// Reads lisgd's command line kept in a file: lines starting with `#` are comments, the rest is
    /// the flags as a user types them, split as a shell splits words (quotes and backslashes), so
    /// that `lisgd $(grep -v '^#' FILE) -d NODE` runs the same (a `-g` with spaces needs quotes
    /// there as well as here). Flags as lisgd 0.3.7's `main` takes them: `-v`, `-d PATH` (the
    /// device: not a setting, ignored), `-t -T -r -m -o -w -h N`, `-g SPEC` (repeatable). lisgd
    /// reads numbers with `atoi`, so `-t 12x` is 12 and `-t x` is 0; here a value that is not a
    /// whole number is refused at its line rather than read as lisgd would misread it.
    package static func read(_ text: String, file: String) throws(ToolConfigurationError) -> LisgdSettings {
        let words = try lineWords(text, file: file)
        var settings = LisgdSettings()
        var widthGiven = false, heightGiven = false
        var i = 0
        while i < words.count {
            let (flag, line) = words[i]
            func fail(_ reason: ToolConfigurationError.Reason) -> ToolConfigurationError {
                ToolConfigurationError(tool: .lisgd, file: file, line: line, reason: reason)
            }
            if flag == "-v" { i += 1; continue }
            guard ["-d", "-t", "-T", "-r", "-m", "-o", "-w", "-h", "-g"].contains(flag) else {
                throw fail(.unknown(flag, expected: "one of lisgd's flags -v -d -t -T -r -m -o -w -h -g"))
            }
            guard i + 1 < words.count else { throw fail(.missingValue(setting: flag)) }
            let value = words[i + 1].word
            i += 2
            if flag == "-d" { continue }
            if flag == "-g" {
                settings.bindings.append(try binding(value, fail: fail))
                continue
            }
            guard let number = Int(value), number >= Int(Int32.min), number <= Int(Int32.max) else {
                throw fail(.badValue(setting: flag, value: value, expected: "a whole number"))
            }
            switch flag {
            case "-t": settings.threshold = number
            case "-T": settings.pressedThreshold = number
            case "-r": settings.degreesLeniency = number
            case "-m": settings.timeoutMS = number
            case "-o": settings.orientation = number
            case "-w": settings.width = number; widthGiven = true
            default: settings.height = number; heightGiven = true
            }
        }
        if widthGiven != heightGiven {
            // lisgd reads the display only when both are 0; one given leaves the other 0.
            if !widthGiven { settings.width = 0 } else { settings.height = 0 }
        }
        return settings
    }

    /// The command line the file holds, word by word as `lisgd $(grep -v '^#' FILE)` gets it (after
    /// the shell's quote removal): what the real lisgd is run with (`replay --with-lisgd`).
    package static func commandLine(_ text: String, file: String) throws(ToolConfigurationError) -> [String] {
        try lineWords(text, file: file).map(\.word)
    }

    /// Every word of the file's non-comment lines, with its line.
    static func lineWords(_ text: String, file: String) throws(ToolConfigurationError) -> [(word: String, line: Int)] {
        var words: [(word: String, line: Int)] = []
        for (index, raw) in ConfigurationLines.split(text).enumerated() {
            let line = raw.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            do {
                words += try ShellWords.split(line).map { ($0, index + 1) }
            } catch {
                throw ToolConfigurationError(tool: .lisgd, file: file, line: index + 1, reason: .malformed(expected: error.expected))
            }
        }
        return words
    }

    /// `-g nfingers,gesture,edge,distance,actmode,command`, split on commas (runs of commas are one
    /// separator, as `strtok` splits). lisgd leaves a field it cannot read as whatever its memory
    /// held; here that is an error at the line.
    static func binding(_ spec: String, fail: (ToolConfigurationError.Reason) -> ToolConfigurationError)
        throws(ToolConfigurationError) -> LisgdBinding {
        let fields = spec.split(separator: ",", omittingEmptySubsequences: true).prefix(6).map(String.init)
        let expected = "nfingers,gesture,edge,distance,actmode,command"
        guard fields.count >= 5 else { throw fail(.badValue(setting: "-g", value: spec, expected: expected)) }
        guard let fingers = Int(fields[0]) else { throw fail(.badValue(setting: "-g nfingers", value: fields[0], expected: "a whole number")) }
        guard let swipe = LisgdSwipe(rawValue: fields[1]) else {
            throw fail(.badValue(setting: "-g gesture", value: fields[1], expected: LisgdSwipe.allCases.map(\.rawValue).joined(separator: " ")))
        }
        guard let edge = LisgdEdge(rawValue: fields[2]) else {
            throw fail(.badValue(setting: "-g edge", value: fields[2], expected: LisgdEdge.allCases.map(\.rawValue).joined(separator: " ")))
        }
        let distance: LisgdDistance
        switch fields[3] {
        case "*": distance = .any
        case "S": distance = .short
        case "M": distance = .medium
        case "L": distance = .long
        default: throw fail(.badValue(setting: "-g distance", value: fields[3], expected: "S M L *"))
        }
        // The old five-field form: a fifth field other than R or P is the command.
        let pressed = fields[4] == "P"
        let command = fields.count > 5 ? fields[5] : (fields[4] == "R" || pressed ? "" : fields[4])
        guard !command.isEmpty else { throw fail(.missingValue(setting: "-g's command")) }
        return LisgdBinding(fingers: fingers, swipe: swipe, edge: edge, distance: distance, pressed: pressed, command: command)
    }
}

/// Splits a line into words as a POSIX shell does for quoting: blanks separate, '...' keeps
/// everything, "..." keeps everything but a backslash before " \ $ `, and a backslash outside
/// quotes keeps the next character. No expansions. Each word with its place in the line (quotes
/// included), for a writer that changes one word and keeps the rest.
enum ShellWords {
    struct Unclosed: Error { var expected: String }

    static func words(_ line: String) throws(Unclosed) -> [(range: Range<String.Index>, text: String)] {
        var words: [(Range<String.Index>, String)] = []
        var word = ""
        var start: String.Index?
        var i = line.startIndex
        func next() -> Character? {
            guard i < line.endIndex else { return nil }
            defer { i = line.index(after: i) }
            return line[i]
        }
        while i < line.endIndex {
            let here = i
            let c = next()!
            switch c {
            case " ", "\t":
                if let begun = start { words.append((begun..<here, word)); word = ""; start = nil }
            case "'":
                if start == nil { start = here }
                var closed = false
                while let d = next() { if d == "'" { closed = true; break }; word.append(d) }
                guard closed else { throw Unclosed(expected: "a closing ' quote") }
            case "\"":
                if start == nil { start = here }
                var closed = false
                while let d = next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\", let e = next() {
                        if !"\"\\$`".contains(e) { word.append(d) }
                        word.append(e)
                    } else {
                        word.append(d)
                    }
                }
                guard closed else { throw Unclosed(expected: "a closing \" quote") }
            case "\\":
                if start == nil { start = here }
                if let d = next() { word.append(d) }
            default:
                if start == nil { start = here }
                word.append(c)
            }
        }
        if let begun = start { words.append((begun..<line.endIndex, word)) }
        return words
    }

    /// The words alone.
    static func split(_ line: String) throws(Unclosed) -> [String] { try words(line).map(\.text) }
}
