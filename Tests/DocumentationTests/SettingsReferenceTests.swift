import Foundation
import GestureCore
import GestureLab
import InteractiveTransition
import SettingsTable
import Testing

/// docs/reference/settings.md's key tables are made from the parts' settings tables themselves
/// (`GestureRecognizerConfiguration.settings`, `LabSettings.settings`, `CompletionPolicy.settings`
/// and each desktop rule's, the curve's and the spring's): a key added, removed or given another
/// range, default, grid or source fails here until the page says so. Run with
/// PINCHLAB_WRITE_DOCS=1 to write the tables into the page.
@Suite struct SettingsReferenceTests {
    static let page = DocumentedCommandsTests.packageRoot.appendingPathComponent("docs/reference/settings.md")

    /// What a key takes: its range (an open end in interval notation), `null` for an optional
    /// number, the names of a choice.
    static func values<Part>(_ setting: Setting<Part>) -> String {
        switch setting.kind {
        case .flag: "true, false"
        case .choice(let names): names.joined(separator: ", ")
        case .optionalNumber, .optionalCount: (setting.range?.text ?? "") + " or null"
        case .number, .count: setting.range?.text ?? ""
        }
    }

    static func tries<Part>(_ setting: Setting<Part>) -> String {
        ((setting.tuningTriesOff ? ["null"] : []) + setting.tuningValues.map(SettingRange.text)).joined(separator: ", ")
    }

    static func table<Part>(_ settings: [Setting<Part>], prefix: String = "", defaults: [(String, Part)]) -> String {
        var rows = ["| key | unit | range | " + defaults.map(\.0).joined(separator: " | ") + " | `tune` tries | source |",
                    "| --- | --- | --- | " + defaults.map { _ in "---" }.joined(separator: " | ") + " | --- | --- |"]
        for s in settings {
            rows.append("| `\(prefix)\(s.key)` | \(s.unit) | \(values(s)) | " + defaults.map { s.text(in: $0.1) }.joined(separator: " | ")
                        + " | \(tries(s)) | \(s.source) |")
        }
        return rows.joined(separator: "\n")
    }

    static var blocks: [(name: String, table: String)] {
        [
            ("recognizer keys", table(GestureRecognizerConfiguration.settings.settings,
                                      defaults: [("touchpad", .default), ("touchscreen", .touchscreen)])),
            ("mapping keys", table(LabSettings.settings.settings, defaults: [("default", .default)])),
            ("pinchlab policy keys", table(CompletionPolicy.settings.settings, prefix: "policy.",
                                           defaults: [("default", .default), ("fluid", .fluid)])),
            ("gnome policy keys", table(GNOMESwipeRule.settings.settings, prefix: "policy.", defaults: [("gnome", .shell)])),
            ("kwin policy keys", table(KWinRule.settings.settings, prefix: "policy.", defaults: [("kwin", .effects)])),
            ("hyprland policy keys", table(HyprlandSwipeRule.settings.settings, prefix: "policy.", defaults: [("hyprland", .workspaceSwipe)])),
            ("android-back policy keys", table(AndroidBackRule.settings.settings, prefix: "policy.",
                                               defaults: [("android-back", .predictiveBack)])),
            ("curve keys", table(CubicBezierCurve.settings.settings, prefix: "completion.curve.", defaults: [("ease-in-out", .easeInOut)])),
            ("spring keys", table(SpringTiming.settings.settings, prefix: "completion.spring.",
                                  defaults: [("appstore-card-dismiss", SpringPresets.appStoreCardDismiss)])),
        ]
    }

    static func replacingBlock(_ name: String, with table: String, in text: String) -> String? {
        let start = "<!-- generated from the settings tables: \(name) -->", end = "<!-- end of \(name) -->"
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else { return nil }
        return text.replacingCharacters(in: from.upperBound..<to.lowerBound, with: "\n" + table + "\n")
    }

    @Test func theKeyTablesAreTheSettingsTables() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        var expected = text
        for block in Self.blocks {
            expected = try #require(Self.replacingBlock(block.name, with: block.table, in: expected), "the page has the \(block.name) block")
        }
        if ProcessInfo.processInfo.environment["PINCHLAB_WRITE_DOCS"] == "1" {
            try expected.write(to: Self.page, atomically: true, encoding: .utf8)
        }
        #expect(text == expected, "docs/reference/settings.md's tables differ from the settings tables: PINCHLAB_WRITE_DOCS=1 swift test --filter SettingsReferenceTests")
    }

    /// Every key a settings file may hold is in one of the page's tables.
    @Test func everyKeyIsOnThePage() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        for key in LabSettings.everyKey where !key.hasPrefix("policy.kind") {
            let shown = key.hasPrefix("touchpadRecognizer.") || key.hasPrefix("touchscreenRecognizer.")
                ? String(key.drop { $0 != "." }.dropFirst()) : key
            #expect(text.contains("| `\(shown)` |"), "\(key) is not on docs/reference/settings.md")
        }
    }
}
