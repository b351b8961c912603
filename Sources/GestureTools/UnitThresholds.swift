/// A threshold a tool keeps in libinput's unaccelerated touchpad units: what the libinput 1.18
/// change moved under it.
package struct UnitThreshold: Sendable, Hashable {
    /// The tool's own name of it (`swipe_threshold`, `motion_threshold`).
    package var key: String
    package var units: Double

    /// Its length in mm under `units`' libinput.
    package func millimetres(in units: LibinputUnits) -> Double { units.millimetres(self.units) }
}

extension GestureToolSettings {
    /// The thresholds this configuration keeps in libinput's unaccelerated units (lisgd's are screen
    /// units, fusuma's a speed of accelerated units, touchegg's computed from the device unless given
    /// to its daemon: none of those changed meaning with libinput's units except touchegg's given ones).
    package var unitThresholds: [UnitThreshold] {
        switch self {
        case .touchegg(let s):
            return [s.daemonStartThreshold.map { UnitThreshold(key: "touchegg --daemon START", units: $0) },
                    s.daemonFinishThreshold.map { UnitThreshold(key: "touchegg --daemon FINISH", units: $0) }].compactMap { $0 }
        case .libinputGestures(let s):
            return s.swipeThreshold > 0 ? [UnitThreshold(key: "swipe_threshold", units: Double(s.swipeThreshold))] : []
        case .inputactions(let s):
            return [UnitThreshold(key: "motion_threshold", units: s.motionThreshold)]
        case .kwinGestures(let s):
            return [UnitThreshold(key: "SwipeGesture minimum delta", units: s.minimumDelta)]
        case .lisgd, .fusuma:
            return []
        }
    }
}
