/// A small YAML reader for the tools' configuration files (fusuma's config.yml, InputActions'
/// config.yaml): the subset those files are written in, read into a tree that keeps each node's
/// line, so that a tool's reader can refuse a value at its line.
///
/// Read: documents separated by `---` (and ended by `...`); block mappings and block sequences by
/// indentation (spaces), a sequence under a key at the key's own indentation, `- key: value` items;
/// plain, single- and double-quoted scalars on one line; `|` and `>` block scalars (with `-` or
/// `+`); flow sequences `[a, b]` and flow mappings `{a: 1}`, nested, on one line; `#` comments.
/// Refused, with the line and what was expected: tabs in indentation, anchors, aliases and tags
/// (`&`, `*`, `!`), complex keys (`?`), multi-line plain or quoted scalars and flow collections,
/// directives (`%`), a duplicate key in one mapping, and anything else outside the subset.
/// Scalars stay text (with whether they were quoted): what a number or a boolean is, each tool's
/// reader says, as each tool's YAML library does.
struct YAMLNode: Sendable, Hashable {
    indirect enum Value: Sendable, Hashable {
        case null
        case scalar(String, quoted: Bool)
        case sequence([YAMLNode])
        case mapping([YAMLEntry])
    }

    var value: Value
    /// 1-based.
    var line: Int

    /// The value of `key` in a mapping; nil for a missing key or a node that is not a mapping.
    subscript(key: String) -> YAMLNode? { entry(key)?.value }

    func entry(_ key: String) -> YAMLEntry? {
        guard case .mapping(let entries) = value else { return nil }
        return entries.first { $0.key == key }
    }

    var entries: [YAMLEntry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    var items: [YAMLNode]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// A scalar's text, quoted or not.
    var text: String? {
        if case .scalar(let text, _) = value { return text }
        return nil
    }

    /// A plain (unquoted) scalar's text.
    var plain: String? {
        if case .scalar(let text, false) = value { return text }
        return nil
    }

    var isNull: Bool {
        if case .null = value { return true }
        if case .scalar(let text, false) = value { return text == "~" || text == "null" || text == "Null" || text == "NULL" }
        return false
    }

    /// What the node is, for a message: "a mapping", "a list", "the text 'x'", "nothing".
    var described: String {
        switch value {
        case .null: "nothing"
        case .scalar(let text, _): "'\(text)'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

struct YAMLEntry: Sendable, Hashable {
    var key: String
    /// The key was quoted (`"3":` is the text 3, `3:` the number in a YAML 1.1 reader).
    var quotedKey: Bool
    var line: Int
    var value: YAMLNode
}

struct YAMLSyntaxError: Error, Sendable, Hashable {
    var line: Int
    var expected: String
}

struct MiniYAML {
    /// The lines, each as characters; a `- ` or `? ` consumed from a line is overwritten by spaces
    /// so that what follows it is read at its own column.
    private var lines: [[Character]]
    private var index = 0

    private init(_ text: String) {
        lines = ConfigurationLines.split(text).map { Array($0) }
        if lines.first?.first == "\u{FEFF}" { lines[0].removeFirst() }
    }

    /// The documents of `text`, in order (an empty document is a null node).
    static func parse(_ text: String) throws(YAMLSyntaxError) -> [YAMLNode] {
        var reader = MiniYAML(text)
        return try reader.documents()
    }

    // MARK: Lines

    private var lineNumber: Int { index + 1 }

    private static func indentation(_ line: [Character]) -> Int {
        line.prefix { $0 == " " }.count
    }

    /// Blank or only a comment.
    private static func isBlank(_ line: [Character]) -> Bool {
        let content = line.drop { $0 == " " || $0 == "\t" }
        return content.isEmpty || content.first == "#"
    }

    /// Moves to the next line with content; false at the end.
    private mutating func skipBlank() -> Bool {
        while index < lines.count && Self.isBlank(lines[index]) { index += 1 }
        return index < lines.count
    }

    private func isMarker(_ marker: String) -> Bool {
        let line = lines[index]
        guard line.starts(with: marker) else { return false }
        let rest = line.dropFirst(3)
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    private mutating func checkIndentation() throws(YAMLSyntaxError) {
        let leading = lines[index].prefix { $0 == " " || $0 == "\t" }
        if leading.contains("\t") { throw YAMLSyntaxError(line: lineNumber, expected: "spaces for indentation, not a tab") }
    }

    // MARK: Documents

    private mutating func documents() throws(YAMLSyntaxError) -> [YAMLNode] {
        var documents: [YAMLNode] = []
        var open = false
        var documentLine = 1
        while skipBlank() {
            if lines[index].first == "%" {
                throw YAMLSyntaxError(line: lineNumber, expected: "no directive (%YAML, %TAG): a plain YAML file")
            }
            if isMarker("---") {
                if open { documents.append(YAMLNode(value: .null, line: documentLine)) }
                open = true
                documentLine = lineNumber
                let rest = Array(lines[index].dropFirst(3))
                if !Self.isBlank(rest) {
                    throw YAMLSyntaxError(line: lineNumber, expected: "nothing after '---' on its line (the document on the next lines)")
                }
                index += 1
                continue
            }
            if isMarker("...") {
                if open { documents.append(YAMLNode(value: .null, line: documentLine)) }
                open = false
                index += 1
                continue
            }
            try checkIndentation()
            let node = try block(indent: Self.indentation(lines[index]))
            documents.append(node)
            open = false
            if skipBlank() && !isMarker("---") && !isMarker("...") {
                throw YAMLSyntaxError(line: lineNumber, expected: "this line indented as the lines before it")
            }
        }
        if open { documents.append(YAMLNode(value: .null, line: documentLine)) }
        return documents
    }

    // MARK: Blocks

    /// Collections open at once, at most (as GestureKit's YAML reader allows: `nestingMax`): a file
    /// of a few hundred KB nested deeper would otherwise end the process with its stack.
    static let nestingMax = 64
    private var nesting = 0

    /// The node whose first line is the current one, indented `indent`.
    private mutating func block(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.nestingMax else {
            throw YAMLSyntaxError(line: lineNumber, expected: "at most \(Self.nestingMax) collections inside one another")
        }
        let line = lines[index]
        let content = Array(line.dropFirst(indent))
        if content.first == "-" && (content.count == 1 || content[1] == " ") { return try sequence(indent: indent) }
        if content.first == "?" && (content.count == 1 || content[1] == " ") {
            throw YAMLSyntaxError(line: lineNumber, expected: "a plain key ('? ' complex keys are not read)")
        }
        if try keyOf(content) != nil { return try mapping(indent: indent) }
        // A scalar alone: the rest of a document, or the value of `- ` or `key:` on the line before.
        return try inlineValue(content, parentIndent: indent - 1)
    }

    private mutating func sequence(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        var items: [YAMLNode] = []
        let start = lineNumber
        while skipBlank() {
            try checkIndentation()
            let line = lines[index]
            let here = Self.indentation(line)
            if here < indent { break }
            guard here == indent else { throw YAMLSyntaxError(line: lineNumber, expected: "a '- ' item at column \(indent + 1)") }
            guard line.count > indent, line[indent] == "-", line.count == indent + 1 || line[indent + 1] == " " else { break }
            // The item's content: on this line after '- ', or on the more indented lines after it.
            var rest = Array(line.dropFirst(indent + 1))
            let spaces = rest.prefix { $0 == " " }.count
            rest.removeFirst(spaces)
            if Self.isBlank(rest) {
                let itemLine = lineNumber
                index += 1
                if skipBlank(), !isMarker("---"), !isMarker("..."), Self.indentation(lines[index]) > indent {
                    try checkIndentation()
                    items.append(try block(indent: Self.indentation(lines[index])))
                } else {
                    items.append(YAMLNode(value: .null, line: itemLine))
                }
                continue
            }
            // Read the rest as if it began its own line at its column.
            let column = indent + 1 + spaces
            lines[index] = Array(repeating: " ", count: column) + rest
            items.append(try block(indent: column))
        }
        return YAMLNode(value: .sequence(items), line: start)
    }

    private mutating func mapping(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        var entries: [YAMLEntry] = []
        let start = lineNumber
        while skipBlank() {
            if isMarker("---") || isMarker("...") { break }
            try checkIndentation()
            let line = lines[index]
            let here = Self.indentation(line)
            if here < indent { break }
            guard here == indent else {
                throw YAMLSyntaxError(line: lineNumber, expected: "a key at column \(indent + 1) (a value is on one line: quote it, or use | for lines)")
            }
            let content = Array(line.dropFirst(indent))
            if content.first == "-" && (content.count == 1 || content[1] == " ") {
                throw YAMLSyntaxError(line: lineNumber, expected: "a key here, not a '- ' list item")
            }
            guard let found = try keyOf(content) else {
                throw YAMLSyntaxError(line: lineNumber, expected: "'key: value' (a key followed by ': ')")
            }
            let (key, quoted, valueStart) = found
            if entries.contains(where: { $0.key == key }) {
                throw YAMLSyntaxError(line: lineNumber, expected: "the key '\(key)' once in its mapping (it is already on line \(entries.first { $0.key == key }!.line))")
            }
            let keyLine = lineNumber
            let rest = Array(content[valueStart...])
            let value: YAMLNode
            if Self.isBlank(rest) {
                index += 1
                if skipBlank(), !isMarker("---"), !isMarker("...") {
                    try checkIndentation()
                    let next = lines[index]
                    let nextIndent = Self.indentation(next)
                    let isItem = next.count > nextIndent && next[nextIndent] == "-" && (next.count == nextIndent + 1 || next[nextIndent + 1] == " ")
                    if nextIndent > indent || (nextIndent == indent && isItem) {
                        value = try isItem ? sequence(indent: nextIndent) : block(indent: nextIndent)
                    } else {
                        value = YAMLNode(value: .null, line: keyLine)
                    }
                } else {
                    value = YAMLNode(value: .null, line: keyLine)
                }
            } else {
                value = try inlineValue(rest, parentIndent: indent)
            }
            entries.append(YAMLEntry(key: key, quotedKey: quoted, line: keyLine, value: value))
        }
        return YAMLNode(value: .mapping(entries), line: start)
    }

    /// The key of a `key: value` line and where its value begins; nil when the line is no mapping entry.
    private func keyOf(_ content: [Character]) throws(YAMLSyntaxError) -> (String, Bool, Int)? {
        guard let first = content.first else { return nil }
        if first == "\"" || first == "'" {
            var position = 0
            let key = try quoted(content, &position)
            while position < content.count && content[position] == " " { position += 1 }
            guard position < content.count, content[position] == ":",
                  position + 1 == content.count || content[position + 1] == " " else { return nil }
            return (key, true, position + 1)
        }
        if first == "[" || first == "{" {
            // A flow collection alone on a line is a value; followed by ': ' it would be a complex key.
            return nil
        }
        var i = 0
        while i < content.count {
            let c = content[i]
            if c == "#" && i > 0 && content[i - 1] == " " { return nil }
            if c == ":" && (i + 1 == content.count || content[i + 1] == " ") {
                let key = String(content[..<i]).trimmingWhitespace
                guard !key.isEmpty else { throw YAMLSyntaxError(line: lineNumber, expected: "a key before ':'") }
                if let k = key.first, "&*!|>%@`".contains(k) {
                    throw YAMLSyntaxError(line: lineNumber, expected: "a plain key (anchors, aliases and tags are not read)")
                }
                return (key, false, i + 1)
            }
            i += 1
        }
        return nil
    }

    /// The value that follows `key:` or `- ` on the current line (and, for a block scalar, the
    /// lines after it); moves past what it read.
    private mutating func inlineValue(_ rest: [Character], parentIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let line = lineNumber
        if let first = rest.first(where: { $0 != " " }), first == "|" || first == ">" {
            return try blockScalar(header: Array(rest.drop { $0 == " " }), parentIndent: parentIndent)
        }
        defer { index += 1 }
        var position = rest.prefix { $0 == " " }.count
        guard position < rest.count else { return YAMLNode(value: .null, line: line) }
        let first = rest[position]
        let node: YAMLNode
        switch first {
        case "\"", "'":
            node = YAMLNode(value: .scalar(try quoted(rest, &position), quoted: true), line: line)
        case "[", "{":
            node = try flow(rest, &position, depth: nesting + 1)
        case "&", "*", "!":
            throw YAMLSyntaxError(line: line, expected: "a plain value (anchors '&', aliases '*' and tags '!' are not read)")
        case "%", "@", "`":
            throw YAMLSyntaxError(line: line, expected: "a value that does not begin with '\(first)' (quote it)")
        default:
            var text = ""
            while position < rest.count {
                let c = rest[position]
                if c == "#" && rest[position - 1] == " " { break }
                if c == ":" && (position + 1 == rest.count || rest[position + 1] == " ") {
                    throw YAMLSyntaxError(line: line, expected: "one 'key: value' a line (quote a value that holds ': ')")
                }
                text.append(c)
                position += 1
            }
            return YAMLNode(value: .scalar(text.trimmingWhitespace, quoted: false), line: line)
        }
        while position < rest.count && rest[position] == " " { position += 1 }
        guard position == rest.count || rest[position] == "#" else {
            throw YAMLSyntaxError(line: line, expected: "the end of the line after the value (or a ' #' comment)")
        }
        return node
    }

    /// A quoted scalar starting at `position`, on one line; `position` ends after the closing quote.
    private func quoted(_ chars: [Character], _ position: inout Int) throws(YAMLSyntaxError) -> String {
        let quote = chars[position]
        position += 1
        var text = ""
        while position < chars.count {
            let c = chars[position]
            if c == quote {
                if quote == "'" && position + 1 < chars.count && chars[position + 1] == "'" {
                    text.append("'")
                    position += 2
                    continue
                }
                position += 1
                return text
            }
            if quote == "\"" && c == "\\" {
                guard position + 1 < chars.count else { break }
                let e = chars[position + 1]
                position += 2
                switch e {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "0": text.append("\0")
                case "\\", "\"", "/", " ": text.append(e)
                case "u", "x":
                    let length = e == "u" ? 4 : 2
                    let digits = String(chars[min(position, chars.count)..<min(position + length, chars.count)])
                    guard digits.count == length, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw YAMLSyntaxError(line: lineNumber, expected: "\\\(e) followed by \(length) hex digits")
                    }
                    text.append(Character(scalar))
                    position += length
                default:
                    throw YAMLSyntaxError(line: lineNumber, expected: "a known escape (\\n \\t \\\\ \\\" \\uXXXX), not \\\(e)")
                }
                continue
            }
            text.append(c)
            position += 1
        }
        throw YAMLSyntaxError(line: lineNumber, expected: "the closing \(quote) on the same line")
    }

    /// A flow collection starting at `position`, closed on the same line.
    private func flow(_ chars: [Character], _ position: inout Int, depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let line = lineNumber
        guard depth <= Self.nestingMax else {
            throw YAMLSyntaxError(line: line, expected: "at most \(Self.nestingMax) collections inside one another")
        }
        let open = chars[position]
        let close: Character = open == "[" ? "]" : "}"
        position += 1
        var items: [YAMLNode] = []
        var entries: [YAMLEntry] = []
        func skipSpaces() { while position < chars.count && chars[position] == " " { position += 1 } }
        func scalar(stopAtColon: Bool) throws(YAMLSyntaxError) -> YAMLNode {
            skipSpaces()
            guard position < chars.count else { throw YAMLSyntaxError(line: line, expected: "'\(close)' on the same line") }
            switch chars[position] {
            case "\"", "'": return YAMLNode(value: .scalar(try quoted(chars, &position), quoted: true), line: line)
            case "[", "{": return try flow(chars, &position, depth: depth + 1)
            case "&", "*", "!", "|", ">", "#":
                throw YAMLSyntaxError(line: line, expected: "a plain or quoted value in '\(open)...\(close)', not '\(chars[position])'")
            default:
                var text = ""
                while position < chars.count {
                    let c = chars[position]
                    if c == "," || c == "]" || c == "}" { break }
                    if stopAtColon && c == ":" && (position + 1 == chars.count || " ,}]".contains(chars[position + 1])) { break }
                    text.append(c)
                    position += 1
                }
                let trimmed = text.trimmingWhitespace
                return trimmed.isEmpty ? YAMLNode(value: .null, line: line) : YAMLNode(value: .scalar(trimmed, quoted: false), line: line)
            }
        }
        skipSpaces()
        if position < chars.count && chars[position] == close {
            position += 1
            return YAMLNode(value: open == "[" ? .sequence([]) : .mapping([]), line: line)
        }
        while true {
            if open == "[" {
                items.append(try scalar(stopAtColon: false))
            } else {
                let key = try scalar(stopAtColon: true)
                guard case .scalar(let name, let wasQuoted) = key.value else {
                    throw YAMLSyntaxError(line: line, expected: "a plain or quoted key in '{...}'")
                }
                skipSpaces()
                var value = YAMLNode(value: .null, line: line)
                if position < chars.count && chars[position] == ":" {
                    position += 1
                    value = try scalar(stopAtColon: false)
                }
                guard !entries.contains(where: { $0.key == name }) else {
                    throw YAMLSyntaxError(line: line, expected: "the key '\(name)' once in its mapping")
                }
                entries.append(YAMLEntry(key: name, quotedKey: wasQuoted, line: line, value: value))
            }
            skipSpaces()
            guard position < chars.count else { throw YAMLSyntaxError(line: line, expected: "'\(close)' on the same line") }
            if chars[position] == "," { position += 1; continue }
            guard chars[position] == close else {
                throw YAMLSyntaxError(line: line, expected: "',' or '\(close)' in '\(open)...\(close)', not '\(chars[position])'")
            }
            position += 1
            return YAMLNode(value: open == "[" ? .sequence(items) : .mapping(entries), line: line)
        }
    }

    /// `|` (lines kept) or `>` (lines folded into one), with `-` (no final newline) or `+` (all
    /// final newlines kept); the lines after it, indented more than `parentIndent`.
    private mutating func blockScalar(header: [Character], parentIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let line = lineNumber
        let literal = header[0] == "|"
        var chomp: Character?
        var i = 1
        if i < header.count && (header[i] == "-" || header[i] == "+") { chomp = header[i]; i += 1 }
        guard Self.isBlank(Array(header[i...])) else {
            throw YAMLSyntaxError(line: line, expected: "'\(header[0])', '\(header[0])-' or '\(header[0])+' alone (no indentation digit)")
        }
        index += 1
        var body: [String] = []
        var contentIndent: Int?
        while index < lines.count {
            let l = lines[index]
            let blank = l.allSatisfy { $0 == " " }
            let here = Self.indentation(l)
            if !blank {
                if here <= parentIndent { break }
                if contentIndent == nil {
                    try checkIndentation()
                    contentIndent = here
                }
                guard here >= contentIndent! else {
                    throw YAMLSyntaxError(line: lineNumber, expected: "the block's lines at column \(contentIndent! + 1) or more")
                }
            }
            body.append(blank ? "" : String(l.dropFirst(contentIndent!)))
            index += 1
        }
        var trailing = 0
        while let last = body.last, last.isEmpty { body.removeLast(); trailing += 1 }
        var text: String
        if literal {
            text = body.joined(separator: "\n")
        } else {
            text = ""
            // A line break between two lines is a space; each empty line, a newline.
            for (n, piece) in body.enumerated() {
                if n > 0 { text += piece.isEmpty ? "\n" : (body[n - 1].isEmpty ? "" : " ") }
                text += piece
            }
        }
        switch chomp {
        case "-"?: break
        case "+"?: if !body.isEmpty || trailing > 0 { text += String(repeating: "\n", count: trailing + (body.isEmpty ? 0 : 1)) }
        default: if !body.isEmpty { text += "\n" }
        }
        return YAMLNode(value: .scalar(text, quoted: true), line: line)
    }
}
