import SettingsTable

// One setting moved by its key, as a settings file spells it: `check` replays a file with the
// setting a small margin names moved just past the margin, to see whether its label fails.
extension LabSettings {
    /// These settings with the setting `margin` names (`DecisionMargin.key`) moved just past the
    /// margin's value, coming from its threshold's side, by a millionth of the setting's usual range
    /// (or of the value): where the deciding frame decides otherwise (`GestureDecision.margin(in:)`,
    /// `CompletionDecision.margin(input:)`).
    ///
    /// - Parameter margin: a decision's margin under these settings.
    /// - Throws: `SettingsProblem` when that value is outside the setting's valid range or the key
    ///   names no setting of these settings (a policy of another kind).
    func movedPast(_ margin: DecisionMargin) throws -> LabSettings {
        let step = 1e-6 * (margin.scale ?? max(1, abs(margin.value)))
        return try setting(margin.key, to: margin.value + (margin.threshold > margin.value ? -step : step))
    }

    /// These settings with the number at `key` (dotted, as a settings file spells it:
    /// `touchpadRecognizer.minMoveMM`, `policy.touchpad.velocityThreshold`) set to `value`, read
    /// back as a settings file holding these settings and that key would be: every part's table,
    /// its range checks and the policy's kind apply as they do to `--config`.
    ///
    /// - Parameters:
    ///   - key: the setting's dotted key.
    ///   - value: its new value.
    package func setting(_ key: String, to value: Double) throws -> LabSettings {
        var file = try changedKeys()
        file.insert(.number(value), at: key.split(separator: ".").map(String.init)[...])
        return try LabSettings(settings: .object(file))
    }
}
