/// A small XML reader for the tools' configuration files (touchegg's touchegg.conf): elements,
/// attributes, text, comments, CDATA, the XML declaration and the five entities plus character
/// references, with the line of each element. A document that is not well-formed is refused with
/// its line, as touchegg's pugixml refuses it ("Error parsing configuration file"). No DTDs.
struct XMLElement: Sendable, Hashable {
    var name: String
    var attributes: [String: String]
    var children: [XMLElement]
    /// The element's own text, its pieces joined (pugixml's `child_value` is the first piece:
    /// configuration values are one piece).
    var text: String
    var line: Int

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
}

struct XMLSyntaxError: Error, Sendable, Hashable {
    var line: Int
    var expected: String
}

struct MiniXML {
    private let chars: [Character]
    private var index = 0
    private var line = 1
    /// Elements open at once, at most: a file nested deeper would otherwise end the process with its stack.
    static let nestingMax = 64
    private var nesting = 0

    private init(_ text: String) { chars = Array(text) }

    /// The document's root element.
    static func parse(_ text: String) throws(XMLSyntaxError) -> XMLElement {
        var reader = MiniXML(text)
        reader.skipMisc()
        guard reader.peek("<"), !reader.peek("</") else { throw XMLSyntaxError(line: reader.line, expected: "a root element") }
        let root = try reader.element()
        reader.skipMisc()
        guard reader.index == reader.chars.count else {
            throw XMLSyntaxError(line: reader.line, expected: "nothing after the root element")
        }
        return root
    }

    private func peek(_ s: String) -> Bool {
        var i = index
        for c in s {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
        }
        return true
    }

    private mutating func advance(_ n: Int = 1) {
        for _ in 0..<n where index < chars.count {
            if chars[index].isNewline { line += 1 }
            index += 1
        }
    }

    private mutating func skipSpace() {
        while index < chars.count, chars[index].isWhitespace { advance() }
    }

    /// Whitespace, comments and processing instructions (the XML declaration).
    private mutating func skipMisc() {
        while true {
            skipSpace()
            if peek("<!--") { skipUntil("-->") } else if peek("<?") { skipUntil("?>") } else { return }
        }
    }

    private mutating func skipUntil(_ end: String) {
        while index < chars.count, !peek(end) { advance() }
        advance(end.count)
    }

    private mutating func name() throws(XMLSyntaxError) -> String {
        var name = ""
        while index < chars.count {
            let c = chars[index]
            guard c.isLetter || c.isNumber || c == "_" || c == "-" || c == "." || c == ":" else { break }
            name.append(c)
            advance()
        }
        guard let first = name.first, !first.isNumber, first != "-", first != "." else {
            throw XMLSyntaxError(line: line, expected: "a name")
        }
        return name
    }

    private mutating func element() throws(XMLSyntaxError) -> XMLElement {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.nestingMax else {
            throw XMLSyntaxError(line: line, expected: "at most \(Self.nestingMax) elements inside one another")
        }
        let startLine = line
        advance()  // <
        let tag = try name()
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            if peek("/>") {
                advance(2)
                return XMLElement(name: tag, attributes: attributes, children: [], text: "", line: startLine)
            }
            if peek(">") { advance(); break }
            guard index < chars.count else { throw XMLSyntaxError(line: line, expected: "'>' to close <\(tag)>") }
            let attribute = try name()
            skipSpace()
            guard peek("=") else { throw XMLSyntaxError(line: line, expected: "'=' after the attribute \(attribute)") }
            advance()
            skipSpace()
            guard index < chars.count, chars[index] == "\"" || chars[index] == "'" else {
                throw XMLSyntaxError(line: line, expected: "a quoted value for the attribute \(attribute)")
            }
            let quote = chars[index]
            advance()
            var value = ""
            while index < chars.count, chars[index] != quote {
                guard chars[index] != "<" else { throw XMLSyntaxError(line: line, expected: "no '<' in an attribute value") }
                if chars[index] == "&" { value.append(contentsOf: try entity()) } else { value.append(chars[index]); advance() }
            }
            guard index < chars.count else { throw XMLSyntaxError(line: line, expected: "the closing quote of \(attribute)") }
            advance()
            guard attributes[attribute] == nil else { throw XMLSyntaxError(line: line, expected: "the attribute \(attribute) once") }
            attributes[attribute] = value
        }
        var children: [XMLElement] = []
        var text = ""
        while true {
            guard index < chars.count else { throw XMLSyntaxError(line: line, expected: "</\(tag)> to close <\(tag)> of line \(startLine)") }
            if peek("</") {
                advance(2)
                let closing = try name()
                skipSpace()
                guard closing == tag, peek(">") else {
                    throw XMLSyntaxError(line: line, expected: "</\(tag)> to close <\(tag)> of line \(startLine), not </\(closing)>")
                }
                advance()
                return XMLElement(name: tag, attributes: attributes, children: children, text: text, line: startLine)
            } else if peek("<!--") {
                skipUntil("-->")
            } else if peek("<![CDATA[") {
                advance(9)
                while index < chars.count, !peek("]]>") { text.append(chars[index]); advance() }
                advance(3)
            } else if peek("<?") {
                skipUntil("?>")
            } else if peek("<!") {
                throw XMLSyntaxError(line: line, expected: "no declaration (<!...>) inside an element")
            } else if peek("<") {
                children.append(try element())
            } else if chars[index] == "&" {
                text.append(contentsOf: try entity())
            } else {
                text.append(chars[index])
                advance()
            }
        }
    }

    private mutating func entity() throws(XMLSyntaxError) -> String {
        let start = line
        advance()  // &
        var body = ""
        while index < chars.count, chars[index] != ";", body.count < 12 { body.append(chars[index]); advance() }
        guard index < chars.count, chars[index] == ";" else { throw XMLSyntaxError(line: start, expected: "an entity ended by ';'") }
        advance()
        switch body {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            if body.hasPrefix("#x"), let code = UInt32(body.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                return String(Character(scalar))
            }
            if body.hasPrefix("#"), let code = UInt32(body.dropFirst()), let scalar = Unicode.Scalar(code) {
                return String(Character(scalar))
            }
            throw XMLSyntaxError(line: start, expected: "a known entity (&lt; &gt; &amp; &quot; &apos; &#N;), not &\(body);")
        }
    }
}
