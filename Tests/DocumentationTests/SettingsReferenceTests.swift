import Foundation
import GestureKit
import GestureLab
import Testing

/// docs/reference/settings.md's key tables are made from the settings tables themselves
/// (`GestureRecognizerConfiguration.thresholds`, `LabSettings.ranges`): a key added, removed or
/// given another range or default fails here until the page says so. Run with
/// PINCHLAB_WRITE_DOCS=1 to write the tables into the page.
@Suite struct SettingsReferenceTests {
    static let page = DocumentedCommandsTests.packageRoot.appendingPathComponent("docs/reference/settings.md")

    static func number(_ value: Double) -> String { RecognizerThreshold.text(value) }

    /// One row per recognizer key: its unit, range, both shipped defaults, what tune tries, libinput's figure.
    static func recognizerTable() -> String {
        var rows = ["| key | unit | range | touchpad | touchscreen | `tune` tries | libinput |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for t in GestureRecognizerConfiguration.thresholds {
            let flag: Bool
            if case .flag = t.field { flag = true } else { flag = false }
            let show = { (c: GestureRecognizerConfiguration) in
                t.name(in: c).map { "`\($0)`" } ?? (flag ? (t.value(in: c) != 0 ? "true" : "false") : number(t.value(in: c)))
            }
            var range = flag ? "true, false" : "\(number(t.range.lowerBound))...\(number(t.range.upperBound))"
            if case .choice(let choice) = t.field { range = choice.names.map { "`\($0)`" }.joined(separator: ", ") }
            rows.append("| `\(t.key)` | \(t.unit) | \(range) | \(show(.default)) | \(show(.touchscreen)) | "
                        + "\(t.tuningValues.map(number).joined(separator: ", ")) | \(t.libinput.map { "`\($0)`" } ?? "") |")
        }
        return rows.joined(separator: "\n")
    }

    /// One row per other number of a settings file, with its range (an open end in interval notation).
    static func rangesTable() -> String {
        var rows = ["| key | unit | range |", "| --- | --- | --- |"]
        for range in LabSettings.ranges { rows.append("| `\(range.key)` | \(range.unit) | \(range.rangeText) |") }
        return rows.joined(separator: "\n")
    }

    static func replacingBlock(_ name: String, with table: String, in text: String) -> String? {
        let start = "<!-- generated from the settings tables: \(name) -->", end = "<!-- end of \(name) -->"
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else { return nil }
        return text.replacingCharacters(in: from.upperBound..<to.lowerBound, with: "\n" + table + "\n")
    }

    @Test func theKeyTablesAreTheSettingsTables() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        var expected = try #require(Self.replacingBlock("recognizer keys", with: Self.recognizerTable(), in: text),
                                    "the page has the recognizer block")
        expected = try #require(Self.replacingBlock("other ranges", with: Self.rangesTable(), in: expected),
                                "the page has the ranges block")
        if ProcessInfo.processInfo.environment["PINCHLAB_WRITE_DOCS"] == "1" {
            try expected.write(to: Self.page, atomically: true, encoding: .utf8)
        }
        #expect(text == expected, "docs/reference/settings.md's tables differ from the settings tables: PINCHLAB_WRITE_DOCS=1 swift test --filter SettingsReferenceTests")
    }
}
