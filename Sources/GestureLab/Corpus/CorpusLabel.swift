import GestureKit

/// What the recognizer should report for one gesture a person made: the ground truth a replay is
/// checked against. Only `kind` is required; a key left out is not checked.
public struct GestureExpectation: Codable, Sendable, Hashable {
    /// `pinch`, `pan`, `hold`, or `none` (no gesture at all: a tap, a resting thumb, pointer motion).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case pinch, pan, hold, none
    }

    /// A pinch closes (`in`, scale < 1) or opens (`out`); a pan goes mostly `up`, `down`, `left` or
    /// `right` (y grows downward, as on the device).
    public enum Direction: String, Codable, Sendable, CaseIterable {
        case `in`, out, up, down, left, right

        public var isPinch: Bool { self == .in || self == .out }
    }

    /// What the transition should do with the gesture: finish, cancel, or never start.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        case finish, cancel, none
    }

    public var kind: Kind
    /// Fingers the recognized gesture should report (nil: any count).
    public var fingers: Int?
    public var direction: Direction?
    /// The outcome of the transition trial this gesture starts (nil: not checked).
    public var outcome: Outcome?

    public init(kind: Kind, fingers: Int? = nil, direction: Direction? = nil, outcome: Outcome? = nil) {
        self.kind = kind
        self.fingers = kind == .none ? nil : fingers
        self.direction = direction
        self.outcome = outcome
    }

    /// "pinch 2 fingers in, finish", "pan 1 finger down", "none".
    public var text: String {
        var words = [kind.rawValue]
        if let fingers { words.append(fingers == 1 ? "1 finger" : "\(fingers) fingers") }
        if let direction { words.append(direction.rawValue) }
        return words.joined(separator: " ") + (outcome.map { ", \($0.rawValue)" } ?? "")
    }

    /// "pinch2", "pan1", "none": a row or column of the tuner's confusion matrix.
    public var shortName: String { kind.rawValue + (fingers.map(String.init) ?? "") }
}

/// One recording of a corpus: where it is, what a person meant by it, and (for the generated
/// corpus) how it was made.
public struct CorpusEntry: Codable, Sendable, Hashable {
    /// The generator's device presets.
    public enum Device: String, Codable, Sendable, CaseIterable {
        case touchpad, touchscreen

        public var description: DeviceDescription {
            switch self {
            case .touchpad: return .presetTouchpad
            case .touchscreen: return .presetTouchscreen
            }
        }
    }

    /// The recording: relative to the manifest's directory, or absolute. For an old split evemu
    /// recording, its `.desc` half.
    public var file: String
    /// The `.events` half of a split evemu recording (`file` is the `.desc` half), as `file` is
    /// written; nil for a recording in one file.
    public var events: String?
    /// The transition the file is replayed through (`pinch-dismiss`, `pan-dismiss`, `zoom-present`).
    public var transition: String
    /// The gestures a person made, in order; `[none]` (or an empty list) when none should be recognized.
    public var expect: [GestureExpectation]
    /// What the person did, in words ("pinch-in", "two-finger scroll", "tap").
    public var gesture: String?
    /// What makes the file hard.
    public var difficulty: String?
    /// The evidence behind the label: contacts, travel in mm, what the recording's name says.
    public var notes: String?
    /// Set when pinchlab is known to disagree with the label, saying why. `check` reports such a file
    /// apart and fails if it starts to match (so the marker gets removed).
    public var knownMismatch: String?
    /// How the recording's owner had configured the device (their desktop's libinput settings),
    /// which `check` and `tune` replay the file with: a device setting of libinput, never a
    /// pinchlab threshold fitted to the file. nil: libinput's defaults.
    public var deviceConfiguration: OwnerDeviceConfiguration?
    /// The generator's device preset, seed and recipe; nil for recordings not made by the generator.
    public var device: Device?
    public var seed: UInt64?
    public var recipe: GestureRecipe?

    public init(file: String, events: String? = nil, transition: String, expect: [GestureExpectation], gesture: String? = nil,
                difficulty: String? = nil, notes: String? = nil, knownMismatch: String? = nil,
                device: Device? = nil, seed: UInt64? = nil, recipe: GestureRecipe? = nil) {
        self.file = file
        self.events = events
        self.transition = transition
        self.expect = expect
        self.gesture = gesture
        self.difficulty = difficulty
        self.notes = notes
        self.knownMismatch = knownMismatch
        self.device = device
        self.seed = seed
        self.recipe = recipe
    }

    /// The expectations with `none` left out: what the replay's gestures are compared with. The
    /// entry's own array when it has no `none` (shared, not copied).
    public var expectedGestures: [GestureExpectation] {
        expect.contains { $0.kind == .none } ? expect.filter { $0.kind != .none } : expect
    }

    /// "pinch 2 fingers in, finish", several joined by "then", "none" for no gesture.
    public var expectationText: String {
        let gestures = expectedGestures
        return gestures.isEmpty ? "none" : gestures.map(\.text).joined(separator: ", then ")
    }
}

/// A corpus manifest (`manifest.json`): the entries and, for the generated corpus, the generator's
/// version and parameters. Documented in docs/reference/manifest.md; its JSON Schema is `Fixtures/manifest.schema.json`.
public struct CorpusManifest: Codable, Sendable {
    /// Bump when the generator changes what it writes for the same recipe and seed.
    public static let currentGeneratorVersion = 1

    public var description: String?
    /// Only for a generated corpus.
    public var generatorVersion: Int?
    /// How the generator turned recipes into events.
    public var synthesis: SynthesisParameters?
    public var entries: [CorpusEntry]

    public init(description: String? = nil, generatorVersion: Int? = nil, synthesis: SynthesisParameters? = nil,
                entries: [CorpusEntry]) {
        self.description = description
        self.generatorVersion = generatorVersion
        self.synthesis = synthesis
        self.entries = entries
    }
}

/// The synthesizer's own settings, kept in the manifest beside each entry's seed and recipe so a
/// file can be made again, or understood, without reading the generator's code.
public struct SynthesisParameters: Codable, Sendable, Hashable {
    /// Frames are this many milliseconds apart, drawn uniformly per frame.
    public var frameIntervalMinimumMS: Double
    public var frameIntervalMaximumMS: Double
    /// Positional noise (a standard deviation in mm) for a recipe without its own `jitterMM`: the
    /// device's position fuzz when it reports one, else this.
    public var jitterWithoutFuzzMM: Double
    /// The noise each device in this corpus got, by device name.
    public var jitterMMByDevice: [String: Double]

    public static func current(devices: [CorpusEntry.Device]) -> SynthesisParameters {
        SynthesisParameters(
            frameIntervalMinimumMS: EventSynthesizer.defaultFrameIntervalMS.lowerBound,
            frameIntervalMaximumMS: EventSynthesizer.defaultFrameIntervalMS.upperBound,
            jitterWithoutFuzzMM: EventSynthesizer.defaultJitterMM,
            jitterMMByDevice: Dictionary(uniqueKeysWithValues: devices.map {
                ($0.rawValue, EventSynthesizer(device: $0.description).jitterMM)
            }))
    }
}
