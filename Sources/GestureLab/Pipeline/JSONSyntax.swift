import Foundation

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

/// A recursive-descent check of JSON syntax that stops at the first error. It only checks: values
/// are decoded afterwards by `JSONDecoder`, which this runs before so its message is never the one
/// a user sees for a typo.
public enum JSONSyntax {
    /// Deeper nesting is refused rather than recursed into (a hostile file must not overflow the stack).
    public static let maximumDepth = 512

    /// The first syntax error in `data`, or nil when it is one JSON value (with surrounding white space).
    public static func firstError(in data: Data) -> JSONSyntaxError? {
        var scanner = Scanner(bytes: [UInt8](data))
        do throws(JSONSyntaxError) {
            try scanner.skipWhitespace()
            try scanner.value(depth: 0)
            try scanner.skipWhitespace()
            if scanner.index < scanner.bytes.count { throw scanner.error(expected: "the end of the file after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(expected: String) -> JSONSyntaxError {
            var line = 1, lineStart = 0
            for i in 0..<min(index, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            return JSONSyntaxError(line: line, column: index - lineStart + 1, expected: expected, found: foundText)
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

        mutating func value(depth: Int) throws(JSONSyntaxError) {
            guard let byte = current else { throw error(expected: "a value (object, array, string, number, true, false or null)") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw error(expected: "a value (object, array, string, number, true, false or null)")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) {
            guard depth <= JSONSyntax.maximumDepth else { throw error(expected: "at most \(JSONSyntax.maximumDepth) nested objects and arrays") }
            index += 1 // {
            try skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                guard current == UInt8(ascii: "\"") else { throw error(expected: "a key in double quotes") }
                try string()
                try skipWhitespace()
                try expect(":", "':' after the key")
                try skipWhitespace()
                try value(depth: depth)
                try skipWhitespace()
                if current == UInt8(ascii: "}") { index += 1; return }
                try expect(",", "',' or '}'")
                try skipWhitespace()
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) {
            guard depth <= JSONSyntax.maximumDepth else { throw error(expected: "at most \(JSONSyntax.maximumDepth) nested objects and arrays") }
            index += 1 // [
            try skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                try value(depth: depth)
                try skipWhitespace()
                if current == UInt8(ascii: "]") { index += 1; return }
                try expect(",", "',' or ']'")
                try skipWhitespace()
            }
        }

        mutating func string() throws(JSONSyntaxError) {
            index += 1 // opening quote
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""): index += 1; return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { continue }
                    if escaped == UInt8(ascii: "u") {
                        index += 1
                        for _ in 0..<4 {
                            guard let hex = current, hex.isHexDigit else { throw error(expected: "four hexadecimal digits after \\u") }
                            index += 1
                        }
                    } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                        index += 1
                    } else {
                        throw error(expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                    }
                case 0..<0x20: throw error(expected: "'\"' to close the string (control characters must be escaped)")
                default: index += 1
                }
            }
            throw error(expected: "'\"' to close the string")
        }

        mutating func number() throws(JSONSyntaxError) {
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
    var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
