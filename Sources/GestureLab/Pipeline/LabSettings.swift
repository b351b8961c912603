import GestureCore
import InteractiveTransition
import SettingsTable

/// Everything that decides how a recording is interpreted: the recognizer thresholds, the
/// finish/cancel policy and the gesture-to-progress mappings. This is what `pinchlab tune --write`
/// saves and `--config` reads (JSON).
public struct LabSettings: Codable, Sendable, Hashable {
    /// The largest settings file read. One holding every key is a few KiB; a larger file is not
    /// a settings file (`--config /dev/zero` must not be read without end).
    public static let fileBytesMax = 64 * 1024

    /// Recognizer thresholds for touchpads; nil uses `GestureRecognizerConfiguration(device:)`.
    public var touchpadRecognizer: GestureRecognizerConfiguration?
    /// Recognizer thresholds for touchscreens; nil uses `GestureRecognizerConfiguration(device:)`.
    public var touchscreenRecognizer: GestureRecognizerConfiguration?
    /// The policy that decides each release.
    public var policy: CompletionPolicy = .default
    /// How far a pan-dismiss drags for the whole transition: the library's mapping's own default
    /// (`PanDismissProgress`), so the library and the command line map a drag to the same progress.
    public var panDismissDistanceMM: Double = PanDismissProgress.defaultDistanceMM
    /// Pinching the fingers out to twice their spread presents fully.
    public var zoomPresentScaleRange: Double = 1
    /// Completion animations are sampled at display rate in the output.
    public var animationFrameRateHz: Double = 60
    /// How the completion animates after the release; nil uses the transition's own (the seeds'
    /// ease-in-out curve for the zoom transitions, seed 003's spring for pan-dismiss). A spring starts
    /// from the release velocity, so a flick carries on instead of easing in from rest.
    public var completion: CompletionTiming?
    /// UIKit's `completionSpeed`: a curve completion takes `remaining x duration / speed` seconds
    /// and a spring runs this much faster (its range is its row's, `LabSettings.settings`).
    public var completionSpeed: Double = 1

    /// Every setting at its default.
    public static let `default` = LabSettings()

    /// The recognizer configuration for `device`: the tuned one for its class, else the defaults
    /// for the device (with its fuzz), always with the device's own traits.
    public func recognizerConfiguration(for device: DeviceDescription) -> GestureRecognizerConfiguration {
        let base = GestureRecognizerConfiguration(device: device)
        let chosen = device.deviceClass == .touchscreen ? touchscreenRecognizer : touchpadRecognizer
        guard var tuned = chosen else { return base }
        tuned.device = base.device
        return tuned
    }

    /// Why these settings cannot be used, if they cannot: the first number outside its range in
    /// its part's table, else the first figure numbers make together outside its range. The check
    /// a settings file gets, for settings changed in memory (by command-line options).
    public func validationError() -> SettingsProblem? {
        do throws(SettingsProblem) {
            try Self.settings.check(self)
            if let touchpadRecognizer { try GestureRecognizerConfiguration.settings.check(touchpadRecognizer, at: ["touchpadRecognizer"]) }
            if let touchscreenRecognizer { try GestureRecognizerConfiguration.settings.check(touchscreenRecognizer, at: ["touchscreenRecognizer"]) }
            try policy.check(at: ["policy"])
            switch completion {
            case .curve(let curve)?: try CubicBezierCurve.settings.check(curve, at: ["completion", "curve"])
            case .spring(let spring)?: try SpringTiming.settings.check(spring, at: ["completion", "spring"])
            case nil: break
            }
            if let problem = figureProblem() { throw problem }
            return nil
        } catch {
            return error
        }
    }
}
