import PinchlabTestSupport
import Testing
@testable import InteractiveTransition

/// Each of the transition's settings tables is the only declaration of its part's settings besides
/// the stored properties: every row sets the property its key names, every stored property has a row.
@Suite struct TransitionSettingsTableTests {
    @Test func everyRowIsAStoredSettingAndEveryStoredSettingHasARow() {
        let spring = SpringPresets.appStoreCardDismiss
        let kindPicksTheTable = [
            "kind": "a settings file's \"kind\" picks the table the other keys are read with (CompletionPolicy.init(settings:over:at:))",
        ]
        let mismatches: [(String, [SettingsCoverage.Mismatch])] = [
            ("policy", SettingsCoverage.mismatches(CompletionPolicy.settings, in: .fluid, notSettings: kindPicksTheTable)),
            // The seeds' policy has both optional rules off: a row must set them from null too.
            ("seed policy", SettingsCoverage.mismatches(CompletionPolicy.settings, in: .seed, notSettings: kindPicksTheTable)),
            ("gnome", SettingsCoverage.mismatches(GNOMESwipeRule.settings, in: .shell)),
            ("gnome figures", SettingsCoverage.mismatches(GNOMESwipeRule.Figures.settings, in: GNOMESwipeRule.shell.touchpad)),
            ("kwin", SettingsCoverage.mismatches(KWinRule.settings, in: .effects)),
            ("hyprland", SettingsCoverage.mismatches(HyprlandSwipeRule.settings, in: .workspaceSwipe)),
            ("android-back", SettingsCoverage.mismatches(AndroidBackRule.settings, in: .predictiveBack)),
            ("curve", SettingsCoverage.mismatches(CubicBezierCurve.settings, in: .easeInOut)),
            ("spring", SettingsCoverage.mismatches(SpringTiming.settings, in: spring)),
            ("spring parameters", SettingsCoverage.mismatches(SpringParameters.settings, in: spring.parameters)),
            ("settle rule", SettingsCoverage.mismatches(SpringSettleRule.settings, in: spring.settleRule)),
        ]
        for (part, found) in mismatches {
            #expect(found.isEmpty, "\(part): \(found)")
        }
    }
}
