import Foundation

/// A JSON value as data, for the settings code that works on a file's keys rather than on
/// `LabSettings` (range checks before decoding, writing only the keys that differ). Decoded with
/// `JSONDecoder`, so numbers keep every digit they were written with.
enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try single.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
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

    /// The value of `encodable` as JSON data (our own settings types always encode).
    init(encoding encodable: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(encodable))
    }

    var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
