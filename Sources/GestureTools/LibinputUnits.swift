/// How many of libinput's unaccelerated touchpad units make a millimetre, for one libinput version.
///
/// The tools' thresholds (touchegg's start and finish distances, libinput-gestures'
/// `swipe_threshold`, fusuma's swipe threshold, InputActions' `motion_threshold`, KWin's 200) are in
/// these units, and the units changed under them: libinput 1.18 (commit 60d5172e) scales a
/// touchpad's unaccelerated deltas as its accelerated ones, a 1000 dpi delta x 0.9 (`baseline`) x
/// 0.2968 (`TP_MAGIC_SLOWDOWN`, src/filter-touchpad.c `touchpad_constant_filter`), about 10.5 units
/// a mm; before, an unaccelerated delta was the 1000 dpi delta itself, 39.4 units a mm. The same
/// `swipe_threshold 400` was 10 mm of travel before 1.18 and 38 mm after (libinput-gestures #310,
/// touchegg #489). This is the one table of that fact.
package struct LibinputUnits: Sendable, Hashable, Encodable {
    /// The libinput version the units are those of, as `libinput --version` prints it.
    package var version: LibinputVersion
    /// Unaccelerated units per millimetre of finger travel on a touchpad.
    package var unitsPerMM: Double

    package init(version: LibinputVersion) {
        self.version = version
        unitsPerMM = version < Self.scaledSince ? Self.dotsPerMM : Self.dotsPerMM * Self.baseline * Self.magicSlowdown
    }

    /// libinput normalizes a touchpad's deltas to 1000 dpi.
    static let dotsPerMM = 1000 / 25.4
    /// `touchpad_constant_filter`'s `baseline`.
    package static let baseline = 0.9
    /// `TP_MAGIC_SLOWDOWN`.
    static let magicSlowdown = 0.2968
    /// The first version whose unaccelerated deltas are scaled.
    package static let scaledSince = LibinputVersion(major: 1, minor: 18, patch: 0)

    /// The units of the libinput whose `libinput --version` said `text` ("1.22.1"), else Debian 12's.
    package init(libinputSays text: String?) {
        let version = text.flatMap { $0.split(separator: " ").last.flatMap { LibinputVersion($0) } }
        self.init(version: version ?? .debianBookworm)
    }

    package func millimetres(_ units: Double) -> Double { units / unitsPerMM }
    package func units(_ millimetres: Double) -> Double { millimetres * unitsPerMM }

    private enum CodingKeys: String, CodingKey { case version, unitsPerMM }
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version.description, forKey: .version)
        try c.encode((unitsPerMM * 1000).rounded() / 1000, forKey: .unitsPerMM)
    }
}

/// A libinput version, `major.minor.patch`.
package struct LibinputVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var major: Int
    package var minor: Int
    package var patch: Int

    package init(major: Int, minor: Int, patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// "1.22.1", "1.17" (a missing patch is 0); nil for anything else.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              let major = Int(parts[0]), let minor = Int(parts[1]), major >= 0, minor >= 0 else { return nil }
        var patch = 0
        if parts.count == 3 {
            guard let p = Int(parts[2]), p >= 0 else { return nil }
            patch = p
        }
        self.init(major: major, minor: minor, patch: patch)
    }

    /// The version Debian 12 ships (`libinput-tools` 1.22.1): the default when none is known.
    package static let debianBookworm = LibinputVersion(major: 1, minor: 22, patch: 1)

    package var description: String { "\(major).\(minor).\(patch)" }

    package static func < (a: LibinputVersion, b: LibinputVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}
