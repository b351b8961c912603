import GestureCore

/// What the recognizer should report for one gesture a person made: the ground truth a replay is
/// checked against. Only `kind` is required; a key left out is not checked.
package struct GestureExpectation: Codable, Sendable, Hashable {
    /// `pinch`, `pan`, `hold`, or `none` (no gesture at all: a tap, a resting thumb, pointer motion).
    package enum Kind: String, Codable, Sendable, CaseIterable {
        case pinch, pan, hold, none
    }

    /// A pinch closes (`in`, scale < 1) or opens (`out`); a pan goes mostly `up`, `down`, `left` or
    /// `right` (y grows downward, as on the device).
    package enum Direction: String, Codable, Sendable, CaseIterable {
        case `in`, out, up, down, left, right

        package var isPinch: Bool { self == .in || self == .out }
    }

    /// What the transition should do with the gesture: finish, cancel, or never start.
    package enum Outcome: String, Codable, Sendable, CaseIterable {
        case finish, cancel, none
    }

    package var kind: Kind
    /// Fingers the recognized gesture should report (nil: any count).
    package var fingers: Int?
    package var direction: Direction?
    /// The outcome of the transition trial this gesture starts (nil: not checked).
    package var outcome: Outcome?

    package init(kind: Kind, fingers: Int? = nil, direction: Direction? = nil, outcome: Outcome? = nil) {
        self.kind = kind
        self.fingers = kind == .none ? nil : fingers
        self.direction = direction
        self.outcome = outcome
    }

    /// "pinch 2 fingers in, finish", "pan 1 finger down", "none".
    package var text: String {
        var words = [kind.rawValue]
        if let fingers { words.append(fingers == 1 ? "1 finger" : "\(fingers) fingers") }
        if let direction { words.append(direction.rawValue) }
        return words.joined(separator: " ") + (outcome.map { ", \($0.rawValue)" } ?? "")
    }

    /// "pinch2", "pan1", "none": a row or column of the tuner's confusion matrix.
    var shortName: String { kind.rawValue + (fingers.map(String.init) ?? "") }
}

/// One recording of a corpus: where it is, what a person meant by it, and (for the generated
/// corpus) how it was made.
///
/// The keys most hand-made entries leave out are held apart (`Details`), in an array that is empty
/// (and allocates nothing) when all of them are nil: an entry of `file` and `expect` takes 48 bytes
/// in place, not 241, and a manifest of 300,000 such entries about 58 MB less.
package struct CorpusEntry: Sendable, Hashable {
    /// The generator's device presets.
    package enum Device: String, Codable, Sendable, CaseIterable {
        case touchpad, touchscreen

        package var description: DeviceDescription {
            switch self {
            case .touchpad: return .presetTouchpad
            case .touchscreen: return .presetTouchscreen
            }
        }
    }

    /// The recording: relative to the manifest's directory, or absolute. For an old split evemu
    /// recording, its `.desc` half.
    package var file: String
    /// The transition the file is replayed through (`pinch-dismiss`, `pan-dismiss`, `zoom-present`).
    package var transition: String
    /// The gestures a person made, in order; `[none]` (or an empty list) when none should be recognized.
    package var expect: [GestureExpectation]
    /// The optional keys, when any is set; never an element with all of them nil, so two equal
    /// entries hold equal arrays.
    private var details: [Details]

    /// The keys an entry may leave out.
    struct Details: Sendable, Hashable {
        var events: String?
        var gesture: String?
        var difficulty: String?
        var notes: String?
        var knownMismatch: String?
        var deviceConfiguration: OwnerDeviceConfiguration?
        var device: Device?
        var seed: UInt64?
        var recipe: GestureRecipe?
    }

    private func detail<T>(_ key: KeyPath<Details, T?>) -> T? { details.first?[keyPath: key] }

    private mutating func setDetail<T>(_ key: WritableKeyPath<Details, T?>, _ value: T?) {
        var changed = details.first ?? Details()
        changed[keyPath: key] = value
        details = changed == Details() ? [] : [changed]
    }

    /// The `.events` half of a split evemu recording (`file` is the `.desc` half), as `file` is
    /// written; nil for a recording in one file.
    package var events: String? {
        get { detail(\.events) }
        set { setDetail(\.events, newValue) }
    }
    /// What the person did, in words ("pinch-in", "two-finger scroll", "tap").
    package var gesture: String? {
        get { detail(\.gesture) }
        set { setDetail(\.gesture, newValue) }
    }
    /// What makes the file hard.
    package var difficulty: String? {
        get { detail(\.difficulty) }
        set { setDetail(\.difficulty, newValue) }
    }
    /// The evidence behind the label: contacts, travel in mm, what the recording's name says.
    package var notes: String? {
        get { detail(\.notes) }
        set { setDetail(\.notes, newValue) }
    }
    /// Set when pinchlab is known to disagree with the label, saying why. `check` reports such a file
    /// apart and fails if it starts to match (so the marker gets removed).
    package var knownMismatch: String? {
        get { detail(\.knownMismatch) }
        set { setDetail(\.knownMismatch, newValue) }
    }
    /// How the recording's owner had configured the device (their desktop's libinput settings),
    /// which `check` and `tune` replay the file with: a device setting of libinput, never a
    /// pinchlab threshold fitted to the file. nil: libinput's defaults.
    package var deviceConfiguration: OwnerDeviceConfiguration? {
        get { detail(\.deviceConfiguration) }
        set { setDetail(\.deviceConfiguration, newValue) }
    }
    /// The generator's device preset, seed and recipe; nil for recordings not made by the generator.
    package var device: Device? {
        get { detail(\.device) }
        set { setDetail(\.device, newValue) }
    }
    package var seed: UInt64? {
        get { detail(\.seed) }
        set { setDetail(\.seed, newValue) }
    }
    package var recipe: GestureRecipe? {
        get { detail(\.recipe) }
        set { setDetail(\.recipe, newValue) }
    }

    package init(file: String, events: String? = nil, transition: String, expect: [GestureExpectation], gesture: String? = nil,
                difficulty: String? = nil, notes: String? = nil, knownMismatch: String? = nil,
                device: Device? = nil, seed: UInt64? = nil, recipe: GestureRecipe? = nil) {
        self.file = file
        self.transition = transition
        self.expect = expect
        let details = Details(events: events, gesture: gesture, difficulty: difficulty, notes: notes, knownMismatch: knownMismatch,
                              device: device, seed: seed, recipe: recipe)
        self.details = details == Details() ? [] : [details]
    }

    /// The expectations with `none` left out: what the replay's gestures are compared with. The
    /// entry's own array when it has no `none` (shared, not copied).
    package var expectedGestures: [GestureExpectation] {
        expect.contains { $0.kind == .none } ? expect.filter { $0.kind != .none } : expect
    }

    /// "pinch 2 fingers in, finish", several joined by "then", "none" for no gesture.
    package var expectationText: String {
        let gestures = expectedGestures
        return gestures.isEmpty ? "none" : gestures.map(\.text).joined(separator: ", then ")
    }
}

/// The keys as the manifest writes them: each optional key only when it is set. Only
/// `ManifestReader` reads an entry (naming each mistake), so there is no `Decodable` form.
extension CorpusEntry: Encodable {
    enum CodingKeys: String, CodingKey {
        case file, events, transition, expect, gesture, difficulty, notes, knownMismatch, deviceConfiguration, device, seed, recipe
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encodeIfPresent(events, forKey: .events)
        try c.encode(transition, forKey: .transition)
        try c.encode(expect, forKey: .expect)
        try c.encodeIfPresent(gesture, forKey: .gesture)
        try c.encodeIfPresent(difficulty, forKey: .difficulty)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encodeIfPresent(knownMismatch, forKey: .knownMismatch)
        try c.encodeIfPresent(deviceConfiguration, forKey: .deviceConfiguration)
        try c.encodeIfPresent(device, forKey: .device)
        try c.encodeIfPresent(seed, forKey: .seed)
        try c.encodeIfPresent(recipe, forKey: .recipe)
    }
}

/// A corpus manifest (`manifest.json`): the entries and, for the generated corpus, the generator's
/// version and parameters. Documented in docs/reference/manifest.md; its JSON Schema is `Fixtures/manifest.schema.json`.
package struct CorpusManifest: Encodable, Sendable {
    /// Bump when the generator changes what it writes for the same recipe and seed.
    package static let currentGeneratorVersion = 1

    package var description: String?
    /// Only for a generated corpus.
    package var generatorVersion: Int?
    /// How the generator turned recipes into events.
    package var synthesis: SynthesisParameters?
    package var entries: [CorpusEntry]

    package init(description: String? = nil, generatorVersion: Int? = nil, synthesis: SynthesisParameters? = nil,
                entries: [CorpusEntry]) {
        self.description = description
        self.generatorVersion = generatorVersion
        self.synthesis = synthesis
        self.entries = entries
    }
}

/// The synthesizer's own settings, kept in the manifest beside each entry's seed and recipe so a
/// file can be made again, or understood, without reading the generator's code.
package struct SynthesisParameters: Codable, Sendable, Hashable {
    /// Frames are this many milliseconds apart, drawn uniformly per frame.
    var frameIntervalMinimumMS: Double
    var frameIntervalMaximumMS: Double
    /// Positional noise (a standard deviation in mm) for a recipe without its own `jitterMM`: the
    /// device's position fuzz when it reports one, else this.
    var jitterWithoutFuzzMM: Double
    /// The noise each device in this corpus got, by device name.
    var jitterMMByDevice: [String: Double]

    package static func current(devices: [CorpusEntry.Device]) -> SynthesisParameters {
        SynthesisParameters(
            frameIntervalMinimumMS: EventSynthesizer.defaultFrameIntervalMS.lowerBound,
            frameIntervalMaximumMS: EventSynthesizer.defaultFrameIntervalMS.upperBound,
            jitterWithoutFuzzMM: EventSynthesizer.defaultJitterMM,
            jitterMMByDevice: Dictionary(uniqueKeysWithValues: devices.map {
                ($0.rawValue, EventSynthesizer(device: $0.description).jitterMM)
            }))
    }
}
