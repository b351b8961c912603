import GestureKit

/// How one set of settings agrees with libinput over a corpus's touchpad recordings
/// (`tune --with-libinput`, report key `"libinput"`): each file's `LibinputAgreement`, summed.
public struct LibinputCorpusAgreement: Sendable, Encodable {
    /// Whose gestures were compared: `best` or `defaults`.
    public var settings: String
    /// `libinput --version`.
    public var version: String
    /// Touchpad recordings compared (libinput has no touchscreen gestures).
    public var files: Int
    public var matched: Int
    public var libinputOnly: Int
    public var pinchlabOnly: Int
    /// matched / (matched + unmatched on either side); 1 when neither side has a gesture.
    public var ratio: Double
    /// Files whose kept libinput run still read events late (its timers may have decided otherwise).
    public var lateFiles: Int

    public init(settings: String, version: String, agreements: [LibinputAgreement], lateFiles: Int) {
        self.settings = settings
        self.version = version
        files = agreements.count
        matched = agreements.reduce(0) { $0 + $1.matched }
        libinputOnly = agreements.reduce(0) { $0 + $1.libinputOnly.count }
        pinchlabOnly = agreements.reduce(0) { $0 + $1.pinchlabOnly.count }
        let total = matched + libinputOnly + pinchlabOnly
        ratio = total == 0 ? 1 : Double(matched) / Double(total)
        self.lateFiles = lateFiles
    }

    private enum CodingKeys: String, CodingKey { case settings, version, files, matched, libinputOnly, pinchlabOnly, ratio, lateFiles }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(settings, forKey: .settings)
        try c.encode(version, forKey: .version)
        try c.encode(files, forKey: .files)
        try c.encode(matched, forKey: .matched)
        try c.encode(libinputOnly, forKey: .libinputOnly)
        try c.encode(pinchlabOnly, forKey: .pinchlabOnly)
        try c.encode(rounded(ratio), forKey: .ratio)
        try c.encode(lateFiles, forKey: .lateFiles)
    }
}
