extension RecordingFormat {
    /// Decides the format from the file's first lines, not its name: a `# EVEMU` line or evemu's
    /// `N:`/`I:`/`E:` lines mean evemu; YAML (`key:` lines, `# libinput record`) means libinput record.
    public static func detect(path: String) throws -> RecordingFormat {
        let input = try LineInput(path: path)
        var lastLine = 0
        while try input.advance() {
            lastLine = input.lineNumber
            var scanner = LineScanner(input.line)
            scanner.skipSpaces()
            if scanner.isAtEnd { continue }
            let rest = UnsafeBufferPointer(rebasing: input.line[scanner.index...])
            if rest[0] == UInt8(ascii: "#") {
                if starts(rest, with: "# EVEMU") { return .evemu }
                if starts(rest, with: "# libinput record") { return .libinputRecord }
                continue
            }
            if rest.count >= 2 && rest[1] == UInt8(ascii: ":") && "NIPBALSE".utf8.contains(rest[0]) { return .evemu }
            guard String(validating: rest, as: UTF8.self) != nil else {
                throw RecordingError(path: path, line: input.lineNumber, kind: .binaryData,
                                     expected: "UTF-8 text (an evemu or libinput record file)",
                                     found: "binary data \(RecordingError.quote(rest))")
            }
            if rest.contains(UInt8(ascii: ":")) || rest[0] == UInt8(ascii: "-") || rest[0] == UInt8(ascii: "{") {
                return .libinputRecord
            }
            throw RecordingError(path: path, line: input.lineNumber, kind: .unknownFormat,
                                 expected: "an evemu line ('N: <device name>') or libinput record YAML ('version: 1')",
                                 found: RecordingError.quote(rest))
        }
        if lastLine == 0 {
            throw RecordingError(path: path, line: 1, kind: .emptyFile,
                                 expected: "an evemu or libinput record file", found: "an empty file")
        }
        // Only comments: let the evemu reader say what is missing.
        return .evemu
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            bytes.count >= expected.count && zip(bytes, expected).allSatisfy { $0 == $1 }
        }
    }
}

/// Opens a recorded gesture file of either format, detected by content.
///
/// - Parameters:
///   - path: the recording (or the `.desc` half of an old split evemu recording).
///   - secondPath: the `.events` half of a split evemu recording.
///   - device: which device of a multi-device `libinput record` file to read. An evemu file holds
///     one device; asking it for another index or a node is an error.
public func openRecording(path: String, secondPath: String? = nil,
                          device selector: RecordingDeviceSelector = .firstTouchDevice) throws -> any RecordingSource {
    let format = try RecordingFormat.detect(path: path)
    switch format {
    case .evemu:
        switch selector {
        case .firstTouchDevice, .index(0): break
        case .index, .node:
            throw RecordingError(path: path, line: 0, kind: .noSuchDevice,
                                 expected: "device index 0 (an evemu file holds one device)", found: "\(selector)")
        }
        return try EvemuReader(path: path, eventsPath: secondPath)
    case .libinputRecord:
        if let secondPath {
            throw RecordingError(path: secondPath, line: 0, kind: .unknownFormat,
                                 expected: "no second file (only evemu recordings come split in two)",
                                 found: "a second file with a libinput record")
        }
        return try LibinputRecordReader(path: path, selecting: selector)
    }
}
