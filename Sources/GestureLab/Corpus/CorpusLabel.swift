import GestureKit

/// What a person meant by a recorded gesture: the ground truth a replay is scored against.
public struct CorpusLabel: Codable, Sendable, Hashable {
    /// The gesture a person performed.
    public enum Gesture: String, Codable, Sendable, CaseIterable {
        case pinchIn = "pinch-in"
        case pinchOut = "pinch-out"
        case oneSidedPinch = "one-sided-pinch"
        case rotate
        case twoFingerScroll = "two-finger-scroll"
        case pan
        case threeFingerSwipe = "three-finger-swipe"
        case tap
        case restingThumb = "resting-thumb"
    }

    /// What the recognizer should report: `pinch`, `pan`, or no gesture at all.
    public enum Kind: String, Codable, Sendable {
        case pinch, pan, none
    }

    /// What the transition should do: finish, cancel, or never start.
    public enum Outcome: String, Codable, Sendable {
        case finish, cancel, none
    }

    public var gesture: Gesture
    public var kind: Kind
    /// Fingers the recognized gesture should report (nil when no gesture is expected).
    public var fingers: Int?
    /// The transition the file is replayed through (`pinch-dismiss`, `pan-dismiss`).
    public var transition: String
    public var outcome: Outcome
    /// What makes this file hard: "slow finish", "quick flick below the progress threshold", ...
    public var difficulty: String
}

/// One file of the corpus: its name, the device it was recorded on, its label, and how it was made.
public struct CorpusEntry: Codable, Sendable, Hashable {
    public enum Device: String, Codable, Sendable, CaseIterable {
        case touchpad, touchscreen

        public var description: DeviceDescription {
            switch self {
            case .touchpad: return .presetTouchpad
            case .touchscreen: return .presetTouchscreen
            }
        }
    }

    /// File name relative to the corpus directory, e.g. `touchpad/pinch-in-slow-01.evemu`.
    public var file: String
    public var device: Device
    public var label: CorpusLabel
    /// The generator's seed and recipe; nil for recordings not made by the generator.
    public var seed: UInt64?
    public var recipe: GestureRecipe?
}

/// The manifest stored as `manifest.json` in a corpus directory.
public struct CorpusManifest: Codable, Sendable {
    /// Bump when the generator changes what it writes for the same recipe and seed.
    public static let currentGeneratorVersion = 1

    public var generatorVersion: Int
    public var description: String
    /// How the generator turned recipes into events (absent from manifests written before it was kept).
    public var synthesis: SynthesisParameters?
    public var entries: [CorpusEntry]
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
