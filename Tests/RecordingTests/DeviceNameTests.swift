import Testing
import GestureCore
import GestureKit

/// Device names as each format can hold them: evemu's `N:` line has no escaping, so a name with a
/// line break is refused (or, from a device, made writable); YAML's double quotes hold any name.
@Suite struct DeviceNameTests {
    let directory = makeTemporaryDirectory()

    func device(named name: String) -> DeviceDescription {
        var device = Fixtures.touchpad
        device.name = name
        return device
    }

    /// Every event of `Fixtures.events`, written to `path` in `format` for a device named `name`.
    func write(_ name: String, to path: String, _ format: RecordingFormat) throws {
        let writer = try makeRecordingWriter(path: path, format: format, device: device(named: name))
        for event in Fixtures.events(count: 40, startSeconds: 0) { try writer.write(event) }
        try writer.close()
    }

    @Test(arguments: [
        ("evil\nB: 01 ff ff ff ff ff ff ff ff", "which holds a line break (U+000A), and evemu has no escaping"),
        ("pad\r", "which holds a line break (U+000D), and evemu has no escaping"),
        ("pad \u{1b}[31m red", "which holds a control character (U+001B), and evemu has no escaping"),
        ("", "which is empty (evemu reads no name from 'N: ')"),
        ("  indented", "which begins with blank space (evemu drops it)"),
    ])
    func evemuRefusesANameItCannotHold(name: String, problem: String) throws {
        let path = directory + "/refused.evemu"
        #expect(EvemuWriter.problem(writingName: name) == problem)
        let error = try #require(throws: RecordingError.self) { try write(name, to: path, .evemu) }
        #expect(error.kind == .unwritableDescription)
        #expect(error.line == 0)
        #expect(error.description.hasPrefix("\(path): expected a device name that fits an evemu 'N:' line, found '"))
        #expect(error.description.hasSuffix(", \(problem); libinput record YAML (.yml) keeps any name"))
        #expect(readFile(path).isEmpty, "no file, not even a header")
    }

    /// What `record` writes for a device whose name evemu cannot hold: a name libevemu and
    /// pinchlab read back as written, one `N:` line, no forged description line.
    @Test func aWritableNameReadsBackAsWritten() throws {
        let forged = "evil\nB: 01 ff ff ff ff ff ff ff ff"
        #expect(EvemuWriter.writableName(forged) == "evil B: 01 ff ff ff ff ff ff ff ff")
        #expect(EvemuWriter.writableName("\n\t pad\u{7f}") == "pad ")
        #expect(EvemuWriter.writableName("\r\n") == EvemuWriter.unnamedDeviceName)
        let path = directory + "/writable.evemu"
        try write(EvemuWriter.writableName(forged), to: path, .evemu)
        let libevemu = try #require(Libevemu.read(path))
        #expect(libevemu.device.name == "evil B: 01 ff ff ff ff ff ff ff ff")
        #expect(libevemu.device.codes == Fixtures.touchpad.codes, "no forged B: line")
        #expect(try openRecording(path: path).device.name == "evil B: 01 ff ff ff ff ff ff ff ff")
    }

    @Test(arguments: ["SynPS/2 # Synaptics\tTouchPad  ", "Touchpad \u{2028} \u{85} ünïcødé 👆"])
    func evemuKeepsNamesWithoutControlCharacters(name: String) throws {
        #expect(EvemuWriter.problem(writingName: name) == nil)
        let path = directory + "/kept.evemu"
        try write(name, to: path, .evemu)
        #expect(try openRecording(path: path).device.name == name)
        #expect(try #require(Libevemu.read(path)).device.name == name)
    }

    /// Double quotes with escapes for everything YAML does not take as printable text or reads
    /// as a line break (NEL, LS, PS would be folded into spaces; C1 controls refused by libyaml).
    @Test func yamlKeepsAnyName() throws {
        let name = "a\nb\rc\0d\u{1b}e\u{7f}f\u{85}g\u{9f}h\u{2028}i\u{2029}j\u{feff}k\u{fffe}l\"m\\n#o: p' q 👆 "
        let path = directory + "/any.yml"
        try write(" " + name, to: path, .libinputRecord)
        let text = readFile(path)
        #expect(text.contains("    # Name:  a b c d e f g h i j k l\"m\\n#o: p' q 👆 \n"), "a comment on one line")
        let reader = try openRecording(path: path)
        #expect(reader.device.name == " " + name)
        #expect(try drainAny(reader) == Fixtures.events(count: 40, startSeconds: 0))
    }
}
