/// What letting one setting move did to the files held out: how many were right before and after
/// the search could move it, and which it turned right and wrong. `tune` (`Tuner.SettingChange`)
/// and `tune --for TOOL` (`ToolTuneReport.Change`) report it for every setting they move.
package struct HeldOutEffect: Sendable {
    /// Held-out files right before and after the search could move the setting (each file scored
    /// by settings searched without it), of `files`.
    package var correctBefore: Int
    package var correctAfter: Int
    package var files: Int
    /// Held-out files it turned right and wrong.
    package var fixes: [String]
    package var breaks: [String]

    /// The cross-validated gain in accuracy (a fraction of the files).
    package var gain: Double {
        files == 0 ? 0 : Double(correctAfter - correctBefore) / Double(files)
    }

    /// From each held-out file's verdict (right or wrong, by its index in the corpus) before and
    /// after the setting could move; `file` names a file by its index.
    init(before: [Int: Bool], after: [Int: Bool], file: (Int) -> String) {
        let indices = after.keys.sorted()
        func turned(_ now: Bool) -> [String] {
            indices.filter { after[$0] == now && before[$0] == !now }.map(file)
        }
        correctBefore = before.values.filter { $0 }.count
        correctAfter = after.values.filter { $0 }.count
        files = indices.count
        fixes = turned(true)
        breaks = turned(false)
    }

    /// Writes its keys into the change's own JSON object, beside the setting's key and values.
    func encode<Keys: HeldOutEffectKeys>(into c: inout KeyedEncodingContainer<Keys>) throws {
        try c.encode(correctBefore, forKey: .heldOutCorrectBefore)
        try c.encode(correctAfter, forKey: .heldOutCorrectAfter)
        try c.encode(files, forKey: .heldOutFiles)
        try c.encode(gain, forKey: .heldOutGain)
        try c.encode(fixes, forKey: .fixes)
        try c.encode(breaks, forKey: .breaks)
    }
}

/// The JSON keys of a `HeldOutEffect`, among those of the change that carries it (each change's
/// `CodingKeys` has these cases).
protocol HeldOutEffectKeys: CodingKey {
    static var heldOutCorrectBefore: Self { get }
    static var heldOutCorrectAfter: Self { get }
    static var heldOutFiles: Self { get }
    static var heldOutGain: Self { get }
    static var fixes: Self { get }
    static var breaks: Self { get }
}
