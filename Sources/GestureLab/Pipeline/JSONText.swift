import Foundation
import SettingsTable

/// The one reader of pinchlab's JSON files (manifests, settings files, a dump's settings): a text
/// checked once and then read in place, one value at a time. An object's members and an array's
/// elements are spans of the text, and a value is made only of the span asked for. A manifest of
/// 300,000 entries is read entry by entry this way, each entry's values made and dropped in turn,
/// so reading takes the text's bytes and one entry's values, never a tree of the whole text. Every
/// span keeps its place in the file, so a message about a value names its line and column.
package struct JSONText: Sendable {
    /// Where one value lies in the text (white space around it excluded).
    package struct Span: Sendable, Hashable {
        package var range: Range<Int>
    }

    /// What a span holds, from its first byte.
    package enum Kind: Sendable {
        case object, array, string, number, bool, null
    }

    package let bytes: [UInt8]
    /// The whole text's value.
    package let root: Span

    /// Checks `bytes` as one JSON value (RFC 8259, at most `JSONSyntax.maximumDepth` deep) without
    /// building it; throws the first syntax error with its line and column.
    package init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        var scanner = JSONSyntax.Scanner(bytes: bytes, building: false)
        root = Span(range: try scanner.wholeText())
        self.bytes = bytes
    }

    /// The 1-based line and column (in bytes) where `span` starts.
    package func position(of span: Span) -> (line: Int, column: Int) { position(ofByte: span.range.lowerBound) }

    package func position(ofByte index: Int) -> (line: Int, column: Int) { JSONSyntax.position(of: index, in: bytes) }

    /// Where the value at `keyPath` (object keys from the root) is written, or as near as the text
    /// comes to it: the key of the deepest member found (a key written twice: its last), else the
    /// root. A problem found in a value's meaning points there.
    package func position(ofKeyPath keyPath: some Sequence<String>) -> (line: Int, column: Int) {
        var span = root, at = root.range.lowerBound
        for key in keyPath {
            guard let member = lastMember(key, of: span) else { break }
            (span, at) = (member.value, member.keyStart)
        }
        return position(ofByte: at)
    }

    package func kind(of span: Span) -> Kind {
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
    package func value(of span: Span) -> JSONValue {
        var scanner = JSONSyntax.Scanner(bytes: bytes, building: true, index: span.range.lowerBound)
        // The text was checked whole: reading part of it again cannot fail.
        return (try? scanner.value(depth: 0)) ?? .null
    }

    /// The whole text's value, made whole (a settings file, at most 64 KiB).
    package var wholeValue: JSONValue { value(of: root) }

    /// The text of `span` as it is written (a number's digits, a string with its quotes).
    package func source(of span: Span) -> Substring {
        Substring(decoding: bytes[span.range], as: UTF8.self)
    }

    /// The string `span` holds (its escapes decoded), or nil when it holds something else.
    package func string(_ span: Span) -> String? {
        guard kind(of: span) == .string, case .string(let text) = value(of: span) else { return nil }
        return text
    }

    /// The members of the object at `span`, in the order written (a key written twice appears
    /// twice); empty for any other value.
    package func members(of span: Span) -> [(key: String, value: Span)] {
        guard kind(of: span) == .object else { return [] }
        var members: [(key: String, value: Span)] = []
        var reader = ContainerReader(text: self, at: span)
        while let (key, value) = reader.next(keyed: true) { members.append((key?.text ?? "", value)) }
        return members
    }

    /// Where the key `key` of the object at `span` is written (its opening quote; a key written
    /// twice: its last), for a message about it. Found by passing over the object again, so the
    /// members a reader keeps need not hold their keys' places.
    func keyStart(of key: String, in span: Span) -> Int? { lastMember(key, of: span)?.keyStart }

    private func lastMember(_ key: String, of span: Span) -> (keyStart: Int, value: Span)? {
        guard kind(of: span) == .object else { return nil }
        var found: (keyStart: Int, value: Span)?
        var reader = ContainerReader(text: self, at: span)
        while let (name, value) = reader.next(keyed: true) {
            if let name, name.text == key { found = (name.start, value) }
        }
        return found
    }

    /// A value of one of pinchlab's own `Decodable` types (a generator recipe), made from its
    /// span's bytes alone: Foundation's decoder sees one small value, never the whole text.
    package func decode<T: Decodable>(_ type: T.Type, at span: Span) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(bytes[span.range]))
    }

    /// An `Encodable` value as the `JSONValue` a settings file holds (a completion timing written
    /// whole), read back through this reader.
    package static func value(encoding value: some Encodable) throws -> JSONValue {
        try JSONText([UInt8](JSONEncoder().encode(value))).wholeValue
    }

    /// The elements of the array at `span`, read one at a time as they are asked for; none for any
    /// other value.
    package func elements(of span: Span) -> Elements { Elements(text: self, span: span) }

    package struct Elements: Sequence, Sendable {
        let text: JSONText
        let span: Span

        package func makeIterator() -> Iterator {
            Iterator(reader: text.kind(of: span) == .array ? ContainerReader(text: text, at: span) : nil)
        }

        package struct Iterator: IteratorProtocol {
            var reader: ContainerReader?

            package mutating func next() -> Span? { reader?.next(keyed: false)?.value }
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

        mutating func next(keyed: Bool) -> (key: (text: String, start: Int)?, value: Span)? {
            try? scanner.skipWhitespace()
            guard scanner.index < end - 1 else { return nil }
            if !first {
                scanner.index += 1 // ,
                try? scanner.skipWhitespace()
            }
            first = false
            var key: (text: String, start: Int)?
            if keyed {
                var keyScanner = JSONSyntax.Scanner(bytes: scanner.bytes, building: true, index: scanner.index)
                key = (try? keyScanner.string()).map { ($0, scanner.index) }
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
