import ArgumentParser
import SettingsTable

/// A command-line option that sets one number of a settings table (`--threshold` sets the policy's
/// `progressThreshold`). Its help's range and its check are the setting's row, found by the
/// property's key path: a key renamed or a range changed in the table changes both, and no option
/// can skip the check a settings file's number gets.
struct SettingOption: Sendable {
    let name: String
    /// How the refusal reads before the range: "--threshold must be within 0...1, got 1.5".
    let mustBe: String
    let rangeText: String
    /// The default as a settings file writes it, for a help text that names it.
    let defaultText: String
    private let rangeProblem: @Sendable (Double) -> SettingsProblem.OutOfRange?

    /// - Parameter default: the part whose value at `path` the help names as the default.
    init<Part>(_ table: SettingsTable<Part>, _ path: KeyPath<Part, Double> & Sendable, name: String, mustBe: String,
               default: Part? = nil) {
        let setting = table.setting(for: path)
        self.name = name
        self.mustBe = mustBe
        rangeText = table.range(of: path).text
        defaultText = `default`.map(setting.text(in:)) ?? ""
        rangeProblem = { setting.rangeProblem(with: $0) }
    }

    /// Refuses a value outside the setting's range; nil (the option not given) passes.
    func check(_ value: Double?) throws {
        guard let value, let problem = rangeProblem(value) else { return }
        throw ValidationError("\(name) must be \(mustBe) \(problem.range.text), got \(value)")
    }
}
