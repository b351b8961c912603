
/// How one set of settings agrees with libinput over a corpus's touchpad recordings
/// (`tune --with-libinput`, report key `"libinput"`): each file's `LibinputAgreement`, summed.
package struct LibinputCorpusAgreement: Sendable, Encodable {
    /// Whose gestures were compared: `best` or `defaults`.
    package var settings: String
    /// `libinput --version`.
    package var version: String
    /// Touchpad recordings compared (libinput has no touchscreen gestures).
    package var files: Int
    package var matched: Int
    package var libinputOnly: Int
    package var pinchlabOnly: Int
    /// matched / (matched + unmatched on either side); 1 when neither side has a gesture.
    @Rounded package var ratio: Double
    /// Files whose kept libinput run still read events late (its timers may have decided otherwise).
    package var lateFiles: Int

    package init(settings: String, version: String, agreements: [LibinputAgreement], lateFiles: Int) {
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
