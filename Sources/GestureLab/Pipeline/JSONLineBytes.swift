import Foundation
import GestureCore
import GestureKit
import SettingsTable

/// JSON text appended to a reused byte buffer, byte for byte as `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes it, plus the characters a terminal acts on or hides that JSON does
/// not require escaping (`TerminalText.isInvisible`: DEL, the C1 controls, bidirectional and
/// zero-width characters) written as `\u0080`, `\u202e`...
///
/// Why not `JSONEncoder`: a replay prints a line per gesture and transition step, and the encoder
/// spends about 70,000 instructions on each (a container tree, a key sort, a `Data`); the records'
/// shapes are fixed, so their keys are written here already in sorted order. `JSONLineBytesTests`
/// compares every record shape with `JSONEncoder`'s bytes for the fields docs/reference/json-lines.md
/// documents (a test-side `Encodable` of each record), so a key added to one and not the other fails.
package struct JSONLineBytes: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// False: strings keep the invisible characters as JSONEncoder keeps them (only what JSON
    /// requires is escaped), for a document whose other parts an encoder writes unescaped (the
    /// viewer page's, which escapes what a `<script>` element needs itself).
    package var escapesInvisibles = true

    package init(reservingCapacity capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    package var count: Int { bytes.count }

    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inline(__always) mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always) package mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Bytes as they are (JSON another encoder wrote).
    mutating func append(raw data: UnsafeRawBufferPointer) { bytes.append(contentsOf: data) }

    /// JSON another encoder wrote, as it is.
    package mutating func append(json: [UInt8]) { bytes.append(contentsOf: json) }

    /// Text as it is (not a JSON string: for lines of readable output gathered in the same buffer).
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `"key":`, for a key that needs no escaping.
    @inline(__always) mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// A string value, escaped as JSONEncoder escapes (`\"`, `\\`, `\b \f \n \r \t`, other C0 controls
    /// as `\u00xx`; `/` as it is), and every other invisible character as `\u007f`, `\u009b`,
    /// `\u202e`... (`invisible(in:at:)`): some terminals act on the C1 controls as on ESC sequences
    /// (U+009B is CSI), a right-to-left override makes `evil\u202egnp.exe` read `evilexe.png`, and
    /// a line may quote text from a recording.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x00..<0x20: unicodeEscape(UInt32(byte))
                case 0x7F, 0xC2, 0xD8, 0xE2, 0xEF:
                    // Not `where escapesInvisibles` on the case: a `where` binds only its last pattern.
                    if escapesInvisibles, let (scalar, length) = Self.invisible(in: utf8, at: index - 1) {
                        unicodeEscape(scalar)
                        index += length - 1
                    } else {
                        bytes.append(byte)
                    }
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `object`, a JSON object as JSONEncoder (`.sortedKeys`) or this writer writes it (no space
    /// between tokens, its keys sorted and none escaped), with `members` added where their keys sort:
    /// each member's value JSON already written, and no key both in `object` and in `members`.
    ///
    /// Why: a value written by hand (`LabSummary.appendJSON`) and values an encoder writes
    /// (`LabSummaryReport`'s libinput verdict, the viewer's document) make one object, as one
    /// encoder with `.sortedKeys` would write it, without a second list of the hand-written fields.
    package static func inserting(_ members: [(key: String, json: [UInt8])], into object: [UInt8]) -> [UInt8] {
        precondition(object.first == UInt8(ascii: "{") && object.last == UInt8(ascii: "}"), "a JSON object")
        let members = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(object.count + members.reduce(0) { $0 + $1.key.utf8.count + $1.json.count + 4 })
        result.append(UInt8(ascii: "{"))
        var next = 0
        func appendMember() {
            if result.count > 1 { result.append(UInt8(ascii: ",")) }
            result.append(UInt8(ascii: "\""))
            result.append(contentsOf: members[next].key.utf8)
            result.append(contentsOf: "\":".utf8)
            result.append(contentsOf: members[next].json)
            next += 1
        }
        var index = 1  // at a key's opening quote, or at the object's closing brace
        while index < object.count - 1 {
            var keyEnd = index + 1
            while object[keyEnd] != UInt8(ascii: "\"") { keyEnd += 1 }
            let key = object[(index + 1)..<keyEnd]
            while next < members.count && members[next].key.utf8.lexicographicallyPrecedes(key) { appendMember() }
            precondition(next == members.count || !members[next].key.utf8.elementsEqual(key), "a key the object has already")
            // The value ends at the first comma or closing brace outside a string and at depth 0.
            var end = keyEnd + 2
            var depth = 0, inString = false
            scan: while true {
                let byte = object[end]
                if inString {
                    if byte == UInt8(ascii: "\\") { end += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { break scan }
                        depth -= 1
                    case UInt8(ascii: ","): if depth == 0 { break scan }
                    default: break
                    }
                }
                end += 1
            }
            if result.count > 1 { result.append(UInt8(ascii: ",")) }
            result.append(contentsOf: object[index..<end])
            index = object[end] == UInt8(ascii: ",") ? end + 1 : end
        }
        while next < members.count { appendMember() }
        result.append(UInt8(ascii: "}"))
        return result
    }

    /// `json` with the invisible characters JSONEncoder writes as they are (it escapes C0 only):
    /// DEL, the C1 controls (which some terminals act on as they do on ESC sequences: U+009B is
    /// CSI), the bidirectional and zero-width characters (`invisible(in:at:)`), written as `\u007f`,
    /// `\u0080`, `\u202e`... They can stand only inside strings, where the escape means the same
    /// character.
    package static func escapingInvisibles(_ json: Data) -> Data {
        json.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            guard bytes.indices.contains(where: { invisible(in: bytes, at: $0) != nil }) else { return json }
            var escaped = JSONLineBytes(reservingCapacity: bytes.count + 16)
            var index = 0
            while index < bytes.count {
                if let (scalar, length) = invisible(in: bytes, at: index) {
                    escaped.unicodeEscape(scalar)
                    index += length
                } else {
                    escaped.byte(bytes[index])
                    index += 1
                }
            }
            return Data(escaped.bytes)
        }
    }

    /// The character whose UTF-8 begins at `index` of `utf8` and its length in bytes, when it is
    /// one a terminal acts on or hides (`TerminalText.isInvisible`) and JSONEncoder leaves as it is:
    /// DEL, or one of U+0080...U+FFFF (the invisible characters are all there: lead bytes 0xC2,
    /// 0xD8, 0xE2, 0xEF). Nil for any other character, and for C0 controls (escaped already).
    @inline(__always)
    static func invisible(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int)? {
        let lead = utf8[index]
        let value: UInt32
        let length: Int
        switch lead {
        case 0x7F:
            return (0x7F, 1)
        case 0xC2, 0xD8:
            guard index + 1 < utf8.count else { return nil }
            value = UInt32(lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
            length = 2
        case 0xE2, 0xEF:
            guard index + 2 < utf8.count else { return nil }
            value = UInt32(lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
            length = 3
        default:
            return nil
        }
        guard let scalar = Unicode.Scalar(value), TerminalText.isInvisible(scalar) else { return nil }
        return (value, length)
    }

    /// `\uxxxx` (a character of the Basic Multilingual Plane), lower-case hexadecimal as
    /// JSONEncoder writes it.
    private mutating func unicodeEscape(_ value: UInt32) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(Self.hexDigit(UInt8((value >> UInt32(shift)) & 0x0F))) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A whole number, as JSONEncoder writes an `Int`.
    mutating func integer(_ value: Int) {
        decimal(negative: value < 0, units: UInt64(value.magnitude), fraction: 0, fractionDigits: 0)
    }

    /// A number as JSONEncoder writes a `Double`: Swift's shortest round-trip `description`
    /// without a trailing `.0` (`1`, `0.25`, `1e-06`, `1e+16`). Callers pass finite values (`rounded`).
    mutating func number(_ value: Double) {
        if !fixedPoint(value) { slowNumber(value) }
    }

    /// A value of at most six decimals between 0.0001 and 2^33 (nearly every number printed) in
    /// fixed point, without making a `String`: its decimal digits with trailing zeros dropped are
    /// then exactly Swift's shortest round-trip form. (Any other decimal of at most six places is
    /// 1e-6 away, more than a unit in the last place below 2^33, so none shorter reads back as the
    /// same value; below 0.0001 and from 2^53 Swift writes exponents, which `slowNumber` keeps.)
    /// False when the value is not such a number.
    @inline(__always) private mutating func fixedPoint(_ value: Double) -> Bool {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return true
        }
        let magnitude = value.magnitude
        guard magnitude >= 0.0001, magnitude < 8_589_934_592 else { return false }
        let micro = (magnitude * 1_000_000).rounded()
        guard micro / 1_000_000 == magnitude else { return false }
        let units = UInt64(micro)
        var fraction = units % 1_000_000
        var digits = 6
        if fraction == 0 {
            digits = 0
        } else {
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        decimal(negative: value < 0, units: units / 1_000_000, fraction: fraction, fractionDigits: digits)
        return true
    }

    /// `-units.fraction`, the fraction `fractionDigits` long with its leading zeros (none: no
    /// point), made on the stack and appended at once: an append per digit checked the array's
    /// uniqueness and capacity for each, about 380 instructions a number.
    private mutating func decimal(negative: Bool, units: UInt64, fraction: UInt64, fractionDigits: Int) {
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 20 digits, a point, 6 digits, a sign
        withUnsafeMutableBytes(of: &text) { buffer in
            var start = buffer.count
            if fractionDigits > 0 {
                var rest = fraction
                for _ in 0..<fractionDigits {
                    start -= 1
                    buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                start -= 1
                buffer[start] = UInt8(ascii: ".")
            }
            var rest = units
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if negative {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    private mutating func slowNumber(_ value: Double) {
        var text = value.description
        text.withUTF8 { utf8 in
            var length = utf8.count
            if length > 2, utf8[length - 1] == UInt8(ascii: "0"), utf8[length - 2] == UInt8(ascii: ".") { length -= 2 }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<length]))
        }
    }

    /// `{"x":…,"y":…}` of a point already rounded.
    mutating func point(_ point: RoundedPoint) {
        raw("{\"x\":")
        number(point.x)
        raw(",\"y\":")
        number(point.y)
        byte(UInt8(ascii: "}"))
    }
}

extension LabRecord {
    /// This record's JSON line without its line end, as `replay --json` prints it (a dump's kept
    /// lines, a report's replay.jsonl); nil for frames and state changes.
    ///
    /// - Parameter margins: the recognizer's thresholds (`ReplayPipeline.recognizerConfiguration`):
    ///   a decision's line then carries its margin (`GestureDecision.margin(in:)`). nil: none.
    package func jsonLine(margins: GestureRecognizerConfiguration?) -> String? {
        var line = JSONLineBytes(reservingCapacity: 512)
        guard appendJSONLine(to: &line, margins: margins) else { return nil }
        return String(decoding: line.bytes.dropLast(), as: UTF8.self)
    }

    /// Appends this record's JSON line (with its line end) as `replay --json` and `live --json`
    /// print it, a decision's line with its margin under `margins`; frames and state changes have
    /// none (false). The margin is made here, for the lines printed, never on the pipeline's way.
    package func appendJSONLine(to out: inout JSONLineBytes, margins: GestureRecognizerConfiguration? = nil) -> Bool {
        switch self {
        case .frame, .stateChange, .releaseMargins: return false
        case .gesture(let gesture):
            let margin = margins.flatMap { gesture.event.state == .changed ? nil : gesture.event.decision?.margin(in: $0) }
            gesture.appendJSON(to: &out, margin: margin)
        case .transition(let step): step.appendJSON(to: &out)
        case .button(let button): button.appendJSON(to: &out)
        }
        out.byte(0x0A)
        return true
    }
}

// Each record's keys below are in sorted (byte) order, as JSONEncoder's `.sortedKeys` writes them.
// These are the records' only field lists: nothing in the sources encodes a line record otherwise
// (the tests' own `Encodable` forms check these bytes).

extension GestureRecord {
    func appendJSON(to out: inout JSONLineBytes, margin: DecisionMargin?) {
        // center, evidence, fingers, gesture, kind, margin, rotation, rule, scale, scaleVelocity, state,
        // time, translation, type, velocity
        out.byte(UInt8(ascii: "{"))
        switch event.kind {
        case .pinch, .hold:
            out.key("center")
            out.point(RoundedPoint(event.centerMM))
            out.byte(UInt8(ascii: ","))
        case .pan: break
        }
        if let decision = event.decision {
            out.key("evidence")
            decision.evidence.appendJSON(to: &out)
            out.byte(UInt8(ascii: ","))
        }
        out.key("fingers")
        out.integer(event.fingerCount)
        out.raw(",\"gesture\":")
        out.integer(gesture)
        out.raw(",\"kind\":")
        out.string(event.kind.rawValue)
        if let margin {
            out.raw(",\"margin\":")
            margin.appendJSON(to: &out)
        }
        if event.kind == .pinch {
            out.raw(",\"rotation\":")
            out.number(rounded(event.rotationDegrees))
        }
        if let decision = event.decision {
            out.raw(",\"rule\":")
            out.string(decision.rule.rawValue)
        }
        if event.kind == .pinch {
            out.raw(",\"scale\":")
            out.number(rounded(event.scale))
            out.raw(",\"scaleVelocity\":")
            out.number(rounded(event.scaleVelocity))
        }
        out.raw(",\"state\":")
        out.string(event.state.rawValue)
        out.raw(",\"time\":")
        out.number(rounded(time))
        if event.kind == .pan {
            out.raw(",\"translation\":")
            out.point(RoundedPoint(event.translationMM))
        }
        out.raw(",\"type\":\"gesture\"")
        if event.kind == .pan {
            out.raw(",\"velocity\":")
            out.point(RoundedPoint(event.velocityMMPerSecond))
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension GestureEvidence {
    /// The evidence as a JSON object: only the measured values, each key naming its unit; counts
    /// and touch ids as whole numbers, measurements with six decimals.
    func appendJSON(to out: inout JSONLineBytes) {
        // A decision's line only (a gesture's first and last): the sort and the entries' array are rare.
        out.byte(UInt8(ascii: "{"))
        for (index, (key, value)) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.string(key)
            out.byte(UInt8(ascii: ":"))
            if key == "fingersBefore" || key == "fingersAfter" || key == "touch" {
                out.integer(Int(value))
            } else {
                out.number(rounded(value))
            }
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension DecisionMargin {
    /// The margin as a JSON object, `{"key", "threshold", "unit", "value"}`, the numbers with six decimals.
    func appendJSON(to out: inout JSONLineBytes) {
        // key, threshold, unit, value
        out.raw("{\"key\":")
        out.string(key)
        out.raw(",\"threshold\":")
        out.number(rounded(threshold))
        out.raw(",\"unit\":")
        out.string(unit)
        out.raw(",\"value\":")
        out.number(rounded(value))
        out.byte(UInt8(ascii: "}"))
    }
}

extension TransitionRecord {
    func appendJSON(to out: inout JSONLineBytes) {
        // progress, reason, state, time, transition, trial, type, velocity
        out.raw("{\"progress\":")
        out.number(rounded(progress))
        if let reason {
            out.raw(",\"reason\":")
            out.string(reason.description)
        }
        out.raw(",\"state\":")
        out.string(state.rawValue)
        out.raw(",\"time\":")
        out.number(rounded(time))
        out.raw(",\"transition\":")
        out.string(name.rawValue)
        out.raw(",\"trial\":")
        out.integer(trial)
        out.raw(",\"type\":\"transition\"")
        if let velocity {
            out.raw(",\"velocity\":")
            out.number(rounded(velocity))
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension ButtonRecord {
    func appendJSON(to out: inout JSONLineBytes) {
        // button, state, time, type
        out.raw("{\"button\":")
        out.string(button.name)
        out.raw(",\"state\":")
        out.string(state.rawValue)
        out.raw(",\"time\":")
        out.number(rounded(time))
        out.raw(",\"type\":\"button\"}")
    }
}
