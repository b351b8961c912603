import GestureTools

/// The real tool run on the same recording beside its emulation (`replay --tool lisgd --with-lisgd`):
/// what it fired, and whether the emulation fired the same gestures (count, fingers, direction),
/// in order. Summary key `"realLisgd"`.
package struct RealToolCheck: Sendable, Encodable {
    package struct Fired: Sendable, Hashable, Encodable {
        package var fingers: Int
        package var gesture: String
        package init(fingers: Int, gesture: String) {
            self.fingers = fingers
            self.gesture = gesture
        }
    }

    /// The real tool's `--version`-less name and where it was found.
    package var tool: String
    /// The command line it was run with (lisgd: the user's file's words as written, `-v`, the
    /// served node, the bindings printing what fired).
    package var arguments: [String]
    package var fired: [Fired]
    /// The emulation's, as compared.
    package var emulated: [Fired]
    package var agrees: Bool

    package init(tool: String, arguments: [String], fired: [Fired], emulated: [FiredGesture]) {
        self.tool = tool
        self.arguments = arguments
        self.fired = fired
        self.emulated = emulated.map { Fired(fingers: $0.fingers, gesture: $0.gesture) }
        agrees = self.fired == self.emulated
    }
}
