
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
    @Rounded public var ratio: Double
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
}
