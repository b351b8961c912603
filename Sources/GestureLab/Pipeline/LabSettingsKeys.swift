import Foundation
import GestureKit
import InteractiveTransition

/// Which keys a settings file may hold. JSON decoding skips keys it does not know, so a misspelt
/// `"polcy"` would silently keep the default policy: a wrong answer with no error. The keys are learnt
/// from the settings' own encoding (with every optional part present), so a setting added to
/// `LabSettings` or `GestureRecognizerConfiguration` is known here without a second list to update.
extension LabSettings {
    /// The key paths in `json` (a settings file's text) that no setting has, as `policy.flickVelocty`;
    /// empty when all are known. The text must already parse as JSON.
    public static func unknownKeys(inJSON json: Data) throws -> [String] {
        let given = try JSONSerialization.jsonObject(with: json)
        var unknown: [String] = []
        KeyTree.known.collectUnknown(in: given, path: [], into: &unknown)
        return unknown
    }

    /// The keys known at `path` (dot-separated, "" for the top level), for an error message.
    public static func knownKeys(at path: String) -> [String] {
        var node = KeyTree.known
        for component in path.split(separator: ".") {
            guard case .object(let children) = node, let child = children[String(component)] else { return [] }
            node = child
        }
        guard case .object(let children) = node else { return [] }
        return children.keys.sorted()
    }
}

extension LabSettings {
    /// Settings that together write every key a settings file may hold: both recognizer sections
    /// (with the height a device may report), every kind of policy (each has its own keys; a key of
    /// another kind is the policy decoder's error, with the kind named), and each kind of completion
    /// timing. The key check learns the keys from them; the range tests check every number in them.
    static var everyOptionalPart: [LabSettings] {
        var traits = GestureDeviceTraits(deviceClass: .touchpad, fuzzMM: 0, heightMM: 60, widthMM: 100, maximumFingerCount: 5)
        var touchpad = GestureRecognizerConfiguration.default
        touchpad.device = traits
        traits.deviceClass = .touchscreen
        var touchscreen = GestureRecognizerConfiguration.touchscreen
        touchscreen.device = traits
        let timings: [CompletionTiming] = [.curve(.easeInOut), .spring(SpringPresets.appStoreCardDismiss)]
        let policies = CompletionPolicyPreset.allCases.map(\.policy)
        return zip(timings + Array(repeating: timings[0], count: policies.count - timings.count), policies).map { timing, policy in
            LabSettings(touchpadRecognizer: touchpad, touchscreenRecognizer: touchscreen, policy: policy, completion: timing)
        }
    }
}

/// The shape of the JSON that settings encode to: objects by key, anything else a leaf.
private indirect enum KeyTree {
    case leaf
    case object([String: KeyTree])

    static let known: KeyTree = LabSettings.everyOptionalPart.map { example in
        // Encoding fixed values of our own types cannot fail.
        let data = try! JSONEncoder().encode(example)
        return KeyTree(try! JSONSerialization.jsonObject(with: data))
    }.reduce(.leaf) { $0.merged(with: $1) }

    init(_ json: Any) {
        guard let object = json as? [String: Any] else { self = .leaf; return }
        self = .object(object.mapValues(KeyTree.init))
    }

    func merged(with other: KeyTree) -> KeyTree {
        switch (self, other) {
        case (.object(let a), .object(let b)): return .object(a.merging(b) { $0.merged(with: $1) })
        case (.leaf, _): return other
        case (_, .leaf): return self
        }
    }

    /// Walks `json` where both it and this tree are objects; a value of the wrong type is left for
    /// the decoder to report.
    func collectUnknown(in json: Any, path: [String], into unknown: inout [String]) {
        guard case .object(let children) = self, let object = json as? [String: Any] else { return }
        for key in object.keys.sorted() {
            let keyPath = path + [key]
            if let child = children[key] {
                child.collectUnknown(in: object[key]!, path: keyPath, into: &unknown)
            } else {
                unknown.append(keyPath.joined(separator: "."))
            }
        }
    }
}
