import SettingsTable

/// A JSON text checked once and then read in place, one value at a time: an object's members and
/// an array's elements are spans of the text, and a value is made only of the span asked for. A
/// manifest of 300,000 entries is read entry by entry this way, each entry's values made and
/// dropped in turn, so reading takes the text's bytes and one entry's values, never a tree of the
/// whole text.
public struct JSONText: Sendable {
    /// Where one value lies in the text (white space around it excluded).
    public struct Span: Sendable, Hashable {
        public var range: Range<Int>
    }

    /// What a span holds, from its first byte.
    public enum Kind: Sendable {
        case object, array, string, number, bool, null
    }

    public let bytes: [UInt8]
    /// The whole text's value.
    public let root: Span

    /// Checks `bytes` as one JSON value (RFC 8259, at most `JSONSyntax.maximumDepth` deep) without
    /// building it; throws the first syntax error with its line and column.
    public init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        var scanner = JSONSyntax.Scanner(bytes: bytes, building: false)
        try scanner.skipWhitespace()
        let start = scanner.index
        _ = try scanner.value(depth: 0)
        let end = scanner.index
        try scanner.skipWhitespace()
        if scanner.index < bytes.count { throw scanner.error(expected: "the end of the file after the JSON value") }
        self.bytes = bytes
        root = Span(range: start..<end)
    }

    public func kind(of span: Span) -> Kind {
        switch bytes[span.range.lowerBound] {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    /// The value of `span`, made whole (for a small value: one setting, one entry's field).
    public func value(of span: Span) -> JSONValue {
        var scanner = JSONSyntax.Scanner(bytes: bytes, building: true, index: span.range.lowerBound)
        // The text was checked whole: reading part of it again cannot fail.
        return (try? scanner.value(depth: 0)) ?? .null
    }

    /// The text of `span` as it is written (a number's digits, a string with its quotes).
    public func source(of span: Span) -> Substring {
        Substring(decoding: bytes[span.range], as: UTF8.self)
    }

    /// The string `span` holds (its escapes decoded), or nil when it holds something else.
    public func string(_ span: Span) -> String? {
        guard kind(of: span) == .string, case .string(let text) = value(of: span) else { return nil }
        return text
    }

    /// The members of the object at `span`, in the order written (a key written twice appears
    /// twice); empty for any other value.
    public func members(of span: Span) -> [(key: String, value: Span)] {
        guard kind(of: span) == .object else { return [] }
        var members: [(key: String, value: Span)] = []
        var reader = ContainerReader(text: self, at: span)
        while let (key, value) = reader.next(keyed: true) { members.append((key ?? "", value)) }
        return members
    }

    /// The elements of the array at `span`, read one at a time as they are asked for; none for any
    /// other value.
    public func elements(of span: Span) -> Elements { Elements(text: self, span: span) }

    public struct Elements: Sequence, Sendable {
        let text: JSONText
        let span: Span

        public func makeIterator() -> Iterator {
            Iterator(reader: text.kind(of: span) == .array ? ContainerReader(text: text, at: span) : nil)
        }

        public struct Iterator: IteratorProtocol {
            var reader: ContainerReader?

            public mutating func next() -> Span? { reader?.next(keyed: false)?.value }
        }
    }

    /// Steps through an object's members or an array's elements, passing over each value (checked
    /// already) without building it.
    struct ContainerReader {
        var scanner: JSONSyntax.Scanner
        let end: Int
        var first = true

        init(text: JSONText, at span: Span) {
            scanner = JSONSyntax.Scanner(bytes: text.bytes, building: false, index: span.range.lowerBound + 1)
            end = span.range.upperBound
        }

        mutating func next(keyed: Bool) -> (key: String?, value: Span)? {
            try? scanner.skipWhitespace()
            guard scanner.index < end - 1 else { return nil }
            if !first {
                scanner.index += 1 // ,
                try? scanner.skipWhitespace()
            }
            first = false
            var key: String?
            if keyed {
                var keyScanner = JSONSyntax.Scanner(bytes: scanner.bytes, building: true, index: scanner.index)
                key = try? keyScanner.string()
                scanner.index = keyScanner.index
                try? scanner.skipWhitespace()
                scanner.index += 1 // :
                try? scanner.skipWhitespace()
            }
            let start = scanner.index
            _ = try? scanner.value(depth: 0)
            return (key, Span(range: start..<scanner.index))
        }
    }
}
