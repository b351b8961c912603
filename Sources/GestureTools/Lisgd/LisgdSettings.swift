/// lisgd's settings: its command line (lisgd 0.3.7, Debian's `lisgd`; git.sr.ht/~mil/lisgd tag
/// 0.3.7, commit dcdb22f; defaults in `config.def.h`, parsing in `main` of `lisgd.c`).
package struct LisgdSettings: Sendable, Hashable {
    /// `-t`: the least swipe length at release, in lisgd's screen units (`distancethreshold`, 125).
    package var threshold: Int = 125
    /// `-T`: the least length for a pressed-mode (`P`) binding while moving (`distancethreshold_pressed`, 60).
    package var pressedThreshold: Int = 60
    /// `-r`: half the width of each direction's window, degrees (`degreesleniency`, 15).
    package var degreesLeniency: Int = 15
    /// `-m`: a gesture fires only when it took less than this, ms from the first finger down
    /// (`timeoutms`, 800).
    package var timeoutMS: Int = 800
    /// `-o`: the bindings turned by this many quarter turns (`orientation`, 0).
    package var orientation: Int = 0
    /// `-w`, `-h`: the screen size the touches are scaled to (`libinput_event_touch_get_x_transformed`).
    /// lisgd reads it from the display when neither is given; pinchlab, which has no display, takes
    /// 1000 x 1000 then (docs/reference/tools.md says so).
    package var width: Int = Self.assumedScreenSide
    package var height: Int = Self.assumedScreenSide
    /// `-g`: the bindings, in order. Empty: every gesture bound in release mode, any edge, any
    /// distance, any finger count (what `fired` reports); lisgd's own built-in bindings are not
    /// assumed (they run sxmo's scripts).
    package var bindings: [LisgdBinding] = []

    package init() {}
    package static let defaults = LisgdSettings()
    /// The screen side pinchlab assumes when `-w`/`-h` are not given.
    static let assumedScreenSide = 1000
    /// lisgd's edge margins, screen units (`edgesizeleft` ... `edgesizebottom` in config.def.h).
    static let edgeSize = 50.0
    /// `MAXSLOTS`.
    static let maximumSlots = 20
}

/// lisgd's gestures (`enum swipe` of lisgd.c): the direction a finger moved, by its start and end
/// letters (D = down edge, U = up...): `LR` is left to right.
package enum LisgdSwipe: String, Sendable, Hashable, CaseIterable {
    case DU, UD, LR, RL, DLUR, DRUL, URDL, ULDR

    /// The gesture a binding of this one matches once lisgd turned it by `-o quarterTurns`.
    package func turned(by quarterTurns: Int) -> LisgdSwipe {
        var swipe = self
        for _ in 0..<max(0, quarterTurns) % 4 { swipe = swipe.turned }
        return swipe
    }

    /// One quarter turn of a binding (`swipereorient`).
    var turned: LisgdSwipe {
        switch self {
        case .DU: .LR
        case .LR: .UD
        case .UD: .RL
        case .RL: .DU
        case .DLUR: .ULDR
        case .ULDR: .URDL
        case .URDL: .DRUL
        case .DRUL: .DLUR
        }
    }
}

/// Where a swipe touched the screen's edges (`enum edge`).
package enum LisgdEdge: String, Sendable, Hashable, CaseIterable {
    case any = "*", none = "N", left = "L", right = "R", top = "T", bottom = "B"
    case topLeft = "TL", topRight = "TR", bottomLeft = "BL", bottomRight = "BR"

    var turned: LisgdEdge {
        switch self {
        case .left: .top
        case .top: .right
        case .right: .bottom
        case .bottom: .left
        case .topLeft: .topRight
        case .topRight: .bottomRight
        case .bottomRight: .bottomLeft
        case .bottomLeft: .topLeft
        case .any, .none: self
        }
    }

    /// The edge a binding of this one takes once lisgd turned it by `-o quarterTurns`.
    package func turned(by quarterTurns: Int) -> LisgdEdge {
        var edge = self
        for _ in 0..<max(0, quarterTurns) % 4 { edge = edge.turned }
        return edge
    }

    /// `gestureexecute`'s edge test: a side binding takes its corners too.
    func admits(_ event: LisgdEdge) -> Bool {
        switch self {
        case .any: true
        case .top: event == .top || event == .topLeft || event == .topRight
        case .bottom: event == .bottom || event == .bottomLeft || event == .bottomRight
        case .left: event == .left || event == .topLeft || event == .bottomLeft
        case .right: event == .right || event == .topRight || event == .bottomRight
        default: self == event
        }
    }
}

/// A swipe's length against the screen (`enum distance`): `S` short, `M` medium, `L` long.
package enum LisgdDistance: Int, Sendable, Hashable, Comparable {
    case any = 0, short = 1, medium = 2, long = 3

    package static func < (a: LisgdDistance, b: LisgdDistance) -> Bool { a.rawValue < b.rawValue }

    package var letter: String {
        switch self {
        case .any: "*"
        case .short: "S"
        case .medium: "M"
        case .long: "L"
        }
    }
}

/// One `-g nfingers,gesture,edge,distance,actmode,command`.
package struct LisgdBinding: Sendable, Hashable {
    package var fingers: Int
    package var swipe: LisgdSwipe
    package var edge: LisgdEdge
    package var distance: LisgdDistance
    /// `P`: fires while the finger moves, every `-T`; `R` (or anything else): at release.
    package var pressed: Bool
    package var command: String

    package init(fingers: Int, swipe: LisgdSwipe, edge: LisgdEdge = .any, distance: LisgdDistance = .any, pressed: Bool = false,
                command: String) {
        self.fingers = fingers
        self.swipe = swipe
        self.edge = edge
        self.distance = distance
        self.pressed = pressed
        self.command = command
    }
}
