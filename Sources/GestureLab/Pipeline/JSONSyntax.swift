import Foundation
import SettingsTable

/// Where a text stops being JSON (RFC 8259), and what was expected there. Foundation's decoder says
/// only "The given data was not valid JSON."; a user editing a settings file by hand needs the line
/// and the column, as a compiler gives them.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line (lines end at "\n").
    public let line: Int
    /// 1-based column, in bytes from the start of the line (as `grep -b`, gcc and vim count).
    public let column: Int
    /// What the grammar allows at that point: "',' or '}'", "a value".
    public let expected: String
    /// What is there instead: "'x'", "end of file", "byte 0xC3" (never raw file text).
    public let found: String

    /// "expected ':' after the key, found '='".
    public var description: String { "expected \(expected), found \(found)" }
}

/// The grammar of RFC 8259, read by recursive descent, stopping at the first error with its line
/// and column. Only `JSONText` reads with it: a text is checked whole once (building nothing), then
/// each value asked for is made from its own span.
enum JSONSyntax {
    /// Deeper nesting is refused rather than recursed into (a hostile file must not overflow the stack).
    static let maximumDepth = 512

    /// The 1-based line and column (in bytes) of `index` in `bytes`, as a compiler gives them.
    static func position(of index: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(index, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return (line, index - lineStart + 1)
    }

    /// Reads the grammar of RFC 8259. With `building` false it checks the same grammar and makes
    /// no value (strings are not copied, numbers not converted): how `JSONText` checks a whole text
    /// and passes over the values it is not asked for.
    struct Scanner {
        let bytes: [UInt8]
        let building: Bool
        var index = 0

        init(bytes: [UInt8], building: Bool, index: Int = 0) {
            self.bytes = bytes
            self.building = building
            self.index = index
        }

        /// Where the one value of the whole text lies (white space around it excluded).
        mutating func wholeText() throws(JSONSyntaxError) -> Range<Int> {
            try skipWhitespace()
            let start = index
            _ = try value(depth: 0)
            let end = index
            try skipWhitespace()
            if index < bytes.count { throw error(expected: "the end of the file after the JSON value") }
            return start..<end
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(expected: String) -> JSONSyntaxError {
            let (line, column) = JSONSyntax.position(of: index, in: bytes)
            return JSONSyntaxError(line: line, column: column, expected: expected, found: foundText)
        }

        private var foundText: String {
            guard let byte = current else { return "end of file" }
            if byte == UInt8(ascii: "\n") { return "end of line" }
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }

        mutating func skipWhitespace() throws(JSONSyntaxError) {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ character: Character, _ expected: String) throws(JSONSyntaxError) {
            guard current == character.asciiValue else { throw error(expected: expected) }
            index += 1
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard let byte = current else { throw error(expected: "a value (object, array, string, number, true, false or null)") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: throw error(expected: "a value (object, array, string, number, true, false or null)")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= JSONSyntax.maximumDepth else { throw error(expected: "at most \(JSONSyntax.maximumDepth) nested objects and arrays") }
            index += 1 // {
            var members: [String: JSONValue] = [:]
            try skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                guard current == UInt8(ascii: "\"") else { throw error(expected: "a key in double quotes") }
                let key = try string()
                try skipWhitespace()
                try expect(":", "':' after the key")
                try skipWhitespace()
                let member = try value(depth: depth)
                if building { members[key] = member }
                try skipWhitespace()
                if current == UInt8(ascii: "}") { index += 1; return .object(members) }
                try expect(",", "',' or '}'")
                try skipWhitespace()
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= JSONSyntax.maximumDepth else { throw error(expected: "at most \(JSONSyntax.maximumDepth) nested objects and arrays") }
            index += 1 // [
            var elements: [JSONValue] = []
            try skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                let element = try value(depth: depth)
                if building { elements.append(element) }
                try skipWhitespace()
                if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
                try expect(",", "',' or ']'")
                try skipWhitespace()
            }
        }

        /// A string's text, its escapes decoded (an unpaired surrogate becomes U+FFFD).
        mutating func string() throws(JSONSyntaxError) -> String {
            index += 1 // opening quote
            var text: [UInt8] = []
            var pendingHighSurrogate: UInt32?
            let building = building
            func appendScalar(_ value: UInt32) {
                guard building else { return }
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                text.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            func flushSurrogate() {
                if pendingHighSurrogate != nil { appendScalar(0xFFFD); pendingHighSurrogate = nil }
            }
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    flushSurrogate()
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { continue }
                    if escaped == UInt8(ascii: "u") {
                        index += 1
                        var code: UInt32 = 0
                        for _ in 0..<4 {
                            guard let hex = current, let digit = hex.hexValue else { throw error(expected: "four hexadecimal digits after \\u") }
                            code = code << 4 | digit
                            index += 1
                        }
                        if (0xDC00...0xDFFF).contains(code), let high = pendingHighSurrogate {
                            appendScalar(0x10000 + (high - 0xD800) << 10 + (code - 0xDC00))
                            pendingHighSurrogate = nil
                        } else {
                            flushSurrogate()
                            if (0xD800...0xDBFF).contains(code) { pendingHighSurrogate = code } else { appendScalar(code) }
                        }
                    } else if let decoded = Self.escapes[escaped] {
                        flushSurrogate()
                        if building { text.append(decoded) }
                        index += 1
                    } else {
                        throw error(expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                    }
                case 0..<0x20: throw error(expected: "'\"' to close the string (control characters must be escaped)")
                default:
                    flushSurrogate()
                    if building { text.append(byte) }
                    index += 1
                }
            }
            throw error(expected: "'\"' to close the string")
        }

        static let escapes: [UInt8: UInt8] = [
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]

        /// A number's value, from its whole text (correctly rounded; beyond a double's range it is infinite).
        mutating func number() throws(JSONSyntaxError) -> Double {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                try digits("a digit")
            }
            if current == UInt8(ascii: ".") {
                index += 1
                try digits("a digit after the decimal point")
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                try digits("a digit in the exponent")
            }
            guard building else { return 0 }
            return Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .nan
        }

        mutating func digits(_ expected: String) throws(JSONSyntaxError) {
            guard let first = current, first.isDigit else { throw error(expected: expected) }
            while let byte = current, byte.isDigit { index += 1 }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            for byte in word.utf8 {
                guard current == byte else { throw error(expected: "'\(word)'") }
                index += 1
            }
        }
    }
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var hexValue: UInt32? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(self - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(self - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(self - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
