import GestureCore
import SettingsTable
import Testing
@testable import GestureLab

/// A manifest entry's `deviceConfiguration` is read through the touchpad recognizer's own table:
/// the same key, names and refusals as `touchpadRecognizer.scrollMethod` in a settings file.
@Suite struct OwnerDeviceConfigurationTests {
    func read(_ json: String) throws -> OwnerDeviceConfiguration {
        try OwnerDeviceConfiguration(settings: JSONText(Array(json.utf8)).wholeValue, at: ["deviceConfiguration"])
    }

    @Test func itsKeysAreTheRecognizersLibinputDeviceSettings() throws {
        #expect(OwnerDeviceConfiguration.settings.keys == ["scrollMethod"])
        let own = OwnerDeviceConfiguration.settings.setting(for: \.scrollMethod)
        let recognizer = GestureRecognizerConfiguration.settings.setting(for: \.scrollMethod)
        #expect(own.key == recognizer.key && own.kind == recognizer.kind && own.source == recognizer.source)
        #expect(own.kind == .choice(ScrollMethod.allCases.map(\.rawValue)))
    }

    @Test func aNameIsReadAndLeftOutIsLibinputsDefault() throws {
        #expect(try read(#"{"scrollMethod": "edge"}"#).scrollMethod == .edge)
        #expect(try read(#"{"scrollMethod": "default"}"#).scrollMethod == .deviceDefault)
        #expect(try read("{}").scrollMethod == nil)
        // Applied to the touchpad recognizer only, over the file's own settings.
        var settings = LabSettings.default
        var tuned = GestureRecognizerConfiguration.default
        tuned.minMoveMM = 2
        settings.touchpadRecognizer = tuned
        let configured = settings.configured(by: try read(#"{"scrollMethod": "none"}"#))
        #expect(configured.touchpadRecognizer?.scrollMethod == ScrollMethod.none && configured.touchpadRecognizer?.minMoveMM == 2)
        #expect(configured.touchscreenRecognizer == nil)
        #expect(settings.configured(by: try read("{}")) == settings)
    }

    @Test func aWrongNameTypeOrThresholdIsRefusedWithTheSettingsProblem() {
        #expect { try read(#"{"scrollMethod": "sideways"}"#) } throws: { error in
            (error as? SettingsProblem)?.description
                == "at 'deviceConfiguration': unknown scrollMethod 'sideways'; choose one of default, two-finger, edge, none"
        }
        #expect { try read(#"{"scrollMethod": true}"#) } throws: { error in
            (error as? SettingsProblem)?.description == "wrong type at 'deviceConfiguration.scrollMethod': expected a string, found true or false"
        }
        #expect { try read(#"{"minMoveMM": 1}"#) } throws: { error in
            guard case .unknownKeys(let keys, let known)? = (error as? SettingsProblem)?.reason else { return false }
            return keys == ["deviceConfiguration.minMoveMM"] && known == ["scrollMethod"]
        }
    }
}
