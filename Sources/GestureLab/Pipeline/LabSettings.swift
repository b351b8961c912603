import GestureKit
import InteractiveTransition
import SettingsTable

/// Everything that decides how a recording is interpreted: the recognizer thresholds, the
/// finish/cancel policy and the gesture-to-progress mappings. This is what `pinchlab tune --write`
/// saves and `--config` reads (JSON).
public struct LabSettings: Codable, Sendable, Hashable {
    /// Seed 003 divides the drag by 100 UIKit points (about 16 mm on a phone). A touchpad is about
    /// 60 mm tall, so 100 mm could never be reached; 40 mm is two thirds of it and reachable on both.
    public static let defaultPanDismissDistanceMM = 40.0
    /// Pinching the fingers out to twice their spread presents fully.
    public static let defaultZoomPresentScaleRange = 1.0
    /// Completion animations are sampled at display rate in the output.
    public static let defaultAnimationFrameRateHz = 60.0
    /// The largest settings file read. One holding every key is a few KiB; a larger file is not
    /// a settings file (`--config /dev/zero` must not be read without end).
    public static let fileBytesMax = 64 * 1024

    /// Recognizer thresholds for touchpads; nil uses `GestureRecognizerConfiguration(device:)`.
    public var touchpadRecognizer: GestureRecognizerConfiguration?
    /// Recognizer thresholds for touchscreens; nil uses `GestureRecognizerConfiguration(device:)`.
    public var touchscreenRecognizer: GestureRecognizerConfiguration?
    public var policy: CompletionPolicy
    public var panDismissDistanceMM: Double
    public var zoomPresentScaleRange: Double
    public var animationFrameRateHz: Double
    /// How the completion animates after the release; nil uses the transition's own (the seeds'
    /// ease-in-out curve for the zoom transitions, seed 003's spring for pan-dismiss). A spring starts
    /// from the release velocity, so a flick carries on instead of easing in from rest.
    public var completion: CompletionTiming?
    /// UIKit's `completionSpeed`, 0.05...1000: a curve completion takes `remaining x duration / speed` seconds
    /// and a spring runs this much faster.
    public var completionSpeed: Double

    public init(touchpadRecognizer: GestureRecognizerConfiguration? = nil,
                touchscreenRecognizer: GestureRecognizerConfiguration? = nil,
                policy: CompletionPolicy = .default,
                panDismissDistanceMM: Double = defaultPanDismissDistanceMM,
                zoomPresentScaleRange: Double = defaultZoomPresentScaleRange,
                animationFrameRateHz: Double = defaultAnimationFrameRateHz,
                completion: CompletionTiming? = nil,
                completionSpeed: Double = 1) {
        self.touchpadRecognizer = touchpadRecognizer
        self.touchscreenRecognizer = touchscreenRecognizer
        self.policy = policy
        self.panDismissDistanceMM = panDismissDistanceMM
        self.zoomPresentScaleRange = zoomPresentScaleRange
        self.animationFrameRateHz = animationFrameRateHz
        self.completion = completion
        self.completionSpeed = completionSpeed
    }


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
