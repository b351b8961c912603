/// One tool with its settings: the user's configuration or the tool's defaults. A closed set,
/// switched over (no dynamic dispatch), as each tool's rule is its own.
package enum GestureToolSettings: Sendable, Hashable {
    case touchegg(ToucheggSettings)
    case fusuma(FusumaSettings)
    case libinputGestures(LibinputGesturesSettings)
    case inputactions(InputActionsSettings)
    case lisgd(LisgdSettings)
    case kwinGestures(KWinGestureSettings)

    package var name: GestureToolName {
        switch self {
        case .touchegg: .touchegg
        case .fusuma: .fusuma
        case .libinputGestures: .libinputGestures
        case .inputactions: .inputactions
        case .lisgd: .lisgd
        case .kwinGestures: .kwinGestures
        }
    }


    /// The tool as it is installed: its own defaults.
    package static func defaults(_ name: GestureToolName) -> GestureToolSettings {
        switch name {
        case .touchegg: .touchegg(.defaults)
        case .fusuma: .fusuma(.defaults)
        case .libinputGestures: .libinputGestures(.defaults)
        case .inputactions: .inputactions(.defaults)
        case .lisgd: .lisgd(.defaults)
        case .kwinGestures: .kwinGestures(.defaults)
        }
    }

    /// The user's configuration file of `name`, read as the tool reads it. KWin has no file of
    /// gesture thresholds (they are compiled in): it is refused.
    package static func read(_ name: GestureToolName, text: String, file: String) throws(ToolConfigurationError) -> GestureToolSettings {
        switch name {
        case .touchegg: return .touchegg(try ToucheggSettings.read(text, file: file))
        case .fusuma: return .fusuma(try FusumaSettings.read(text, file: file))
        case .libinputGestures: return .libinputGestures(try LibinputGesturesSettings.read(text, file: file))
        case .inputactions: return .inputactions(try InputActionsSettings.read(text, file: file))
        case .lisgd: return .lisgd(try LisgdSettings.read(text, file: file))
        case .kwinGestures:
            throw ToolConfigurationError(tool: name, file: file, line: 0,
                                         reason: .unknown("a configuration file for \(name.rawValue)",
                                                          expected: "no file: \(name.rawValue) is judged at its own figures"))
        }
    }

    /// What the tool would have done with `stream`.
    package func judge(_ stream: ToolStream) -> ToolVerdict {
        var verdict = ToolVerdict(name: name, source: stream.source, units: stream.device.units, fired: [])
        verdict.caveats = stream.caveats
        guard name.reads(stream.device.kind) else {
            verdict.note = .readsOnly(stream.device.kind == .touchpad ? .touchscreen : .touchpad)
            return verdict
        }
        switch self {
        case .touchegg(let settings): verdict.fired = ToucheggEmulator(settings: settings).judge(stream)
        case .fusuma(let settings): verdict.fired = FusumaEmulator(settings: settings).judge(stream)
        case .inputactions(let settings): verdict.fired = InputActionsEmulator(settings: settings).judge(stream)
        case .libinputGestures(let settings): verdict.fired = LibinputGesturesEmulator(settings: settings).judge(stream)
        case .lisgd(let settings): verdict.fired = LisgdEmulator(settings: settings).judge(stream)
        case .kwinGestures(let settings): verdict.fired = KWinGestureEmulator(settings: settings).judge(stream)
        }
        return verdict
    }
}
