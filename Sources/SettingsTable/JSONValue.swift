/// A JSON value as data: what a settings file parses to once, before its keys, ranges and values
/// are read from the settings tables (`SettingsTable`), and what `tune --write` diffs. Numbers are
/// doubles, parsed from their text with every digit.
public enum JSONValue: Codable, Hashable, Sendable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, by key.
    case object([String: JSONValue])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try single.decode([String: JSONValue].self)) }
    }

    /// Writes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        // A whole number is written without a fraction, so a count (an Int setting) reads back.
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: try single.encode(Int64(value))
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    /// The members, when the value is an object.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value at a dotted path of object keys (`["spring", "parameters"]`), if every step is an object.
    public subscript(path path: some Sequence<String>) -> JSONValue? {
        var node: JSONValue? = self
        for key in path { node = node?.object?[key] }
        return node
    }

    /// What a message calls this kind of value: "a number", "an object".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
