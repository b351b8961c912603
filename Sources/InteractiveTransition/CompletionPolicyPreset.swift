/// Whose finish/cancel rule a policy is.
public enum CompletionPolicyKind: Hashable, Sendable {
    /// pinchlab's threshold, projection and flick (`CompletionPolicy`'s own three settings).
    case pinchlab
    /// GNOME Shell's swipe rule.
    case gnome(GNOMESwipeRule)
    /// KWin's activation threshold.
    case kwin(KWinRule)
    /// Hyprland's workspace swipe rule.
    case hyprland(HyprlandSwipeRule)
    /// Android's predictive back rule.
    case androidBack(AndroidBackRule)

    /// The kind without its figures: settings files' `"kind"`.
    public enum Name: String, Hashable, Sendable, Codable, CaseIterable {
        /// pinchlab's own rule, or a desktop's.
        case pinchlab, gnome, kwin, hyprland
        /// Android's back gesture.
        case androidBack = "android-back"
    }

    /// The kind's name, without its figures.
    public var name: Name {
        switch self {
        case .pinchlab: return .pinchlab
        case .gnome: return .gnome
        case .kwin: return .kwin
        case .hyprland: return .hyprland
        case .androidBack: return .androidBack
        }
    }
}

/// The named policies of `--policy` and `--compare`: the desktops' rules with their shipped
/// figures, the seeds' UIKit rule, and pinchlab's own two.
public enum CompletionPolicyPreset: String, Hashable, Sendable, CaseIterable, Codable {
    /// The desktop's rule with its shipped figures.
    case gnome, kwin, hyprland
    /// Android's predictive back, with its shipped figures.
    case androidBack = "android-back"
    /// UIKit's rule as the seeds use it.
    case uikitSeed = "uikit-seed"
    /// pinchlab's own policies: the default, and a more fluid one.
    case `default`, fluid

    /// Older names still accepted: `seed` is `uikit-seed`.
    public static let aliases: [String: CompletionPolicyPreset] = ["seed": .uikitSeed]

    /// A preset by its name or an alias.
    public init?(named name: String) {
        if let preset = CompletionPolicyPreset(rawValue: name) ?? Self.aliases[name] { self = preset } else { return nil }
    }

    /// The preset's policy (built and checked once, for every preset: `policies`).
    public var policy: CompletionPolicy { Self.policies[self]! }

    /// Every preset's policy, made once: a desktop's is built from its rule and validated.
    private static let policies: [CompletionPolicyPreset: CompletionPolicy] = Dictionary(uniqueKeysWithValues: allCases.map { preset in
        // The figures are the sources' own and valid, so building them cannot fail.
        let policy: CompletionPolicy
        switch preset {
        case .gnome: policy = try! CompletionPolicy(kind: .gnome(.shell))
        case .kwin: policy = try! CompletionPolicy(kind: .kwin(.effects))
        case .hyprland: policy = try! CompletionPolicy(kind: .hyprland(.workspaceSwipe))
        case .androidBack: policy = try! CompletionPolicy(kind: .androidBack(.predictiveBack))
        case .uikitSeed: policy = .seed
        case .default: policy = .default
        case .fluid: policy = .fluid
        }
        return (preset, policy)
    })

    /// The preset a settings file's `"kind"` starts from.
    static func preset(of kind: CompletionPolicyKind.Name) -> CompletionPolicyPreset {
        switch kind {
        case .pinchlab: return .default
        case .gnome: return .gnome
        case .kwin: return .kwin
        case .hyprland: return .hyprland
        case .androidBack: return .androidBack
        }
    }

    /// The preset this policy is exactly, if any (for labels).
    public init?(matching policy: CompletionPolicy) {
        guard let preset = Self.allCases.first(where: { Self.policies[$0] == policy }) else { return nil }
        self = preset
    }
}
