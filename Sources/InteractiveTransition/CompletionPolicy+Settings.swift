import SettingsTable

// A policy's keys in a settings file: pinchlab's own three here, each desktop's next to its rule
// (DesktopCompletionRules.swift). `"kind"` picks the table; a key of another kind is an error that
// names the kind, never silently ignored.
extension CompletionPolicy {
    /// pinchlab's own rule. The tuner's policy grid is these settings' tuning values.
    public static let settings = SettingsTable<CompletionPolicy>([
        .number("progressThreshold", \.progressThreshold, "", SettingRange(0...1),
                tune: [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7],
                source: "a fraction of the transition; the seeds' progress > 0.5"),
        .optionalNumber("decelerationRatePerMS", \.decelerationRatePerMS, "per ms", SettingRange(0, 1, lowerIsOpen: true, upperIsOpen: true),
                        tune: [0.99, 0.995, 0.997, 0.998, 0.999], tuneOff: true,
                        source: "UIScrollView.DecelerationRate .normal 0.998, .fast 0.99 per ms; at 1 nothing ever stops, at 0 nothing moves"),
        // The one range of the init and a settings file: at 1000 progress/s the whole transition
        // takes 1 ms, less than one frame of any touch device (60-250 Hz), so no finger is ever
        // measured faster; a flick that can never fire is `null`.
        .optionalNumber("flickVelocity", \.flickVelocity, "progress/s", SettingRange(0, 1000, lowerIsOpen: true),
                        tune: [0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0], tuneOff: true,
                        source: "above 0 (0 would make every release a flick); 1000 progress/s is the transition in 1 ms, faster than any touch frame measures"),
    ])

    /// The keys of each kind besides `kind`, from its table.
    public static func keys(of kind: CompletionPolicyKind.Name) -> [String] {
        switch kind {
        case .pinchlab: settings.keys
        case .gnome: GNOMESwipeRule.settings.keys
        case .kwin: KWinRule.settings.keys
        case .hyprland: HyprlandSwipeRule.settings.keys
        case .androidBack: AndroidBackRule.settings.keys
        }
    }

    /// Every key a policy section may hold, whatever its kind (dotted: `touchpad.velocityThreshold`).
    public static var everyKey: [String] {
        ["kind"] + CompletionPolicyKind.Name.allCases.flatMap { keys(of: $0) }
    }

    /// The policy a settings section describes. A key left out keeps its value from `defaults` (or,
    /// when `kind` names another kind, from that kind's preset); an explicit `null` turns pinchlab's
    /// optional rules off (no projection, no flick), so `{"progressThreshold": 0.6}` changes only the
    /// threshold. Every check is the kind's table's.
    public init(settings json: JSONValue, over defaults: CompletionPolicy, at section: [String] = []) throws(SettingsProblem) {
        guard var members = json.object else {
            throw SettingsProblem(at: Array(section.dropLast()), .wrongType(key: section.last ?? "", expected: "an object", found: json.kindName))
        }
        var kindName = defaults.kind.name
        if let kind = members.removeValue(forKey: "kind") {
            guard case .string(let name) = kind else {
                throw SettingsProblem(at: section, .wrongType(key: "kind", expected: "a string", found: kind.kindName))
            }
            guard let named = CompletionPolicyKind.Name(rawValue: name) else {
                throw SettingsProblem(at: section, .unknownName(what: "kind", name: name,
                                                                choices: CompletionPolicyKind.Name.allCases.map(\.rawValue), orElse: nil))
            }
            kindName = named
        }
        // Every kind's keys: a key of another kind is not unknown but that kind's, said below.
        try SettingsKeys.refuseUnknownKeys(in: json, known: Self.everyKey, at: section)
        let own = Set(Self.keys(of: kindName).map { String($0.split(separator: ".")[0]) })
        if let stray = members.keys.sorted().first(where: { !own.contains($0) }) {
            throw SettingsProblem(at: section, .notASettingOfKind(key: stray, kind: "\(kindName.rawValue) policy", keys: own.sorted()))
        }
        let base = kindName == defaults.kind.name ? defaults : CompletionPolicyPreset.preset(of: kindName).policy
        let figures = JSONValue.object(members)
        let kind: CompletionPolicyKind
        switch base.kind {
        case .pinchlab:
            self = try Self.settings.decode(figures, over: base, at: section)
            return
        case .gnome(let rule): kind = .gnome(try GNOMESwipeRule.settings.decode(figures, over: rule, at: section))
        case .kwin(let rule): kind = .kwin(try KWinRule.settings.decode(figures, over: rule, at: section))
        case .hyprland(let rule): kind = .hyprland(try HyprlandSwipeRule.settings.decode(figures, over: rule, at: section))
        case .androidBack(let rule): kind = .androidBack(try AndroidBackRule.settings.decode(figures, over: rule, at: section))
        }
        do {
            self = try CompletionPolicy(kind: kind)
        } catch {
            // Every figure is inside its range by now; a rule of several figures says what is wrong.
            throw SettingsProblem(at: section, .invalid(error.description))
        }
    }
}

extension CompletionPolicy {
    /// The first figure outside its range in its kind's table, as a problem of `section`.
    public func check(at section: [String] = []) throws(SettingsProblem) {
        switch kind {
        case .pinchlab: try Self.settings.check(self, at: section)
        case .gnome(let rule): try GNOMESwipeRule.settings.check(rule, at: section)
        case .kwin(let rule): try KWinRule.settings.check(rule, at: section)
        case .hyprland(let rule): try HyprlandSwipeRule.settings.check(rule, at: section)
        case .androidBack(let rule): try AndroidBackRule.settings.check(rule, at: section)
        }
    }
}

extension CompletionPolicy {
    /// What a settings section needs to give this policy back when read over `defaults`: `kind`
    /// when it differs, and the kind's keys that differ from where its reading starts (`defaults`
    /// for the same kind, else the kind's preset).
    public func changes(from defaults: CompletionPolicy) -> [String: JSONValue] {
        let sameKind = kind.name == defaults.kind.name
        let base = sameKind ? defaults : CompletionPolicyPreset.preset(of: kind.name).policy
        var section: [String: JSONValue] = sameKind ? [:] : ["kind": .string(kind.name.rawValue)]
        let figures: [String: JSONValue]
        switch (kind, base.kind) {
        case (.pinchlab, _): figures = Self.settings.changes(self, from: base)
        case (.gnome(let rule), .gnome(let from)): figures = GNOMESwipeRule.settings.changes(rule, from: from)
        case (.kwin(let rule), .kwin(let from)): figures = KWinRule.settings.changes(rule, from: from)
        case (.hyprland(let rule), .hyprland(let from)): figures = HyprlandSwipeRule.settings.changes(rule, from: from)
        case (.androidBack(let rule), .androidBack(let from)): figures = AndroidBackRule.settings.changes(rule, from: from)
        default: figures = [:]  // the base is of the same kind by construction
        }
        section.merge(figures) { _, figure in figure }
        return section
    }
}
