import Foundation
import GestureCore
import GestureLab
import InteractiveTransition

/// Arbitrary bytes as a settings file (`--config`): a `LabSettingsError.Reason` or settings, never a
/// crash. Settings that are accepted must survive the mathematics (a spring of mass 1e-300 trapped,
/// one of 1e-15 never ended), so each is replayed on a quick pinch and a pan flick, whose releases
/// run the completion policy and animation, the fuzz run's time limit catching a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettingsFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let settings = try? LabSettings(fileBytes: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    for (transition, events) in SettingsFuzzGestures.gestures {
        var source = EventList(device: SettingsFuzzGestures.device, events: events)
        guard let result = try? ReplayRun.run(&source, name: nil, transition: transition, settings: settings) else { continue }
        precondition(result.summary.duration.isFinite, "summary duration \(result.summary.duration)")
    }
    return 0
}

/// Two synthesized corpus gestures whose releases animate a completion: made once per process.
enum SettingsFuzzGestures {
    static let device = CorpusEntry.Device.touchpad.description

    static let gestures: [(TransitionName, [InputEvent])] = {
        let wanted = ["touchpad/pinch-in-quick-flick-01.evemu": TransitionName.pinchDismiss,
                      "touchpad/pan-down-flick-01.evemu": .panDismiss]
        return StandardCorpus.entries().compactMap { entry in
            guard let transition = wanted[entry.file], let recipe = entry.recipe, let seed = entry.seed else { return nil }
            return (transition, recipe.events(on: device, seed: seed))
        }
    }()
}
