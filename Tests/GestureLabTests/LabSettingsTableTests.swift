import PinchlabTestSupport
import Testing
@testable import GestureLab

/// The mappings' table is the only declaration of those settings besides their stored properties;
/// the sections are parts of their own, each with its table (checked in their own targets).
@Suite struct LabSettingsTableTests {
    static let sections = [
        "touchpadRecognizer": "a section read with GestureRecognizerConfiguration.settings",
        "touchscreenRecognizer": "a section read with GestureRecognizerConfiguration.settings",
        "policy": "a section read with its kind's table (CompletionPolicy.init(settings:over:at:))",
        "completion": "a name or a curve's or spring's section (CompletionTiming.init(settings:at:))",
    ]

    @Test func everyRowIsAStoredSettingAndEveryStoredSettingHasARow() {
        let found = SettingsCoverage.mismatches(LabSettings.settings, in: .default, notSettings: Self.sections)
        #expect(found.isEmpty, "\(found)")
    }
}
