/// The formats pinchlab reads, decided by content: the two it also writes (`RecordingFormat`), and
/// `evtest` logs, which it reads only (`convert` turns one into either of the others).
package enum RecordingInputFormat: String, CaseIterable, Sendable, Hashable {
    case evemu
    case libinputRecord = "libinput-record"
    /// `evtest` output, as printed or pasted into a bug report (`EvtestReader`).
    case evtest

    /// Decides the format of the file at `path` (`-`: standard input) from its first lines, not
    /// its name. See `detect(_:)`.
    package static func detect(path: String) throws -> RecordingInputFormat {
        try detect(try LineInput(path: path))
    }

    /// Decides the format from the first lines in `input`'s buffer, without consuming them, so the
    /// reader then starts at the first byte (an unseekable pipe is read only once): a `# EVEMU`
    /// line or evemu's `N:`/`I:`/`E:` lines mean evemu; evtest's own lines (`Input driver version
    /// is`, `Input device name:`, `Event: time`, ...), or a shell prompt running evtest, each
    /// perhaps behind `> ` quote marks, mean an evtest log; YAML (`key:` lines, `# libinput
    /// record`, `---`) means libinput record. A leading byte order mark is passed over.
    static func detect(_ input: LineInput) throws -> RecordingInputFormat {
        try input.peekAhead { bytes, isComplete in
            try decide(from: bytes, isComplete: isComplete, path: input.path)
        }
    }

    static let expectedRecording =
        "an evemu file ('# EVEMU 1.3' or 'N: <device name>'), libinput record YAML ('version: 1') or an evtest log "
        + "('Input driver version is ...')"

    /// The format the first meaningful line of `bytes` shows; nil when the lines so far do not
    /// tell and more may come.
    private static func decide(from bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool,
                               path: String) throws -> RecordingInputFormat? {
        var lineStart = 0
        var lineNumber = 0
        var sawText = false
        while lineStart < bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: 0x0A)
            guard let lineEnd = newline ?? (isComplete ? bytes.count : nil) else { return nil }
            lineNumber += 1
            var first = lineStart
            var last = lineEnd
            lineStart = lineEnd + 1
            if lineNumber == 1 && bytes[first..<last].starts(with: LineInput.byteOrderMark) { first += 3 }
            if last > first && bytes[last - 1] == 0x0D { last -= 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[first..<last])
            if line.contains(0) {
                throw RecordingError(path: path, line: lineNumber, kind: .binaryData,
                                     expected: "a text line", found: "a NUL byte in \(RecordingError.quote(line))")
            }
            guard let text = line.firstIndex(where: { !LineScanner.isSpace($0) }) else { continue }
            sawText = true
            let rest = UnsafeBufferPointer(rebasing: line[text...])
            let unquoted = EvtestLine.content(rest)
            if EvtestLine.isEvtestHeaderOrEvent(unquoted) || EvtestLine.isEvtestPrompt(unquoted) { return .evtest }
            // A paste's code fence says nothing of what is inside it.
            if EvtestLine.isCodeFence(unquoted) { continue }
            if rest[0] == UInt8(ascii: "#") {
                if starts(rest, with: "# EVEMU") { return .evemu }
                if starts(rest, with: "# libinput record") { return .libinputRecord }
                continue
            }
            if rest.count >= 2 && rest[1] == UInt8(ascii: ":") && "NIPBALSE".utf8.contains(rest[0]) { return .evemu }
            guard String(validating: rest, as: UTF8.self) != nil,
                  !rest.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7f }) else {
                throw RecordingError(path: path, line: lineNumber, kind: .binaryData,
                                     expected: "UTF-8 text (an evemu, libinput record or evtest file)",
                                     found: "binary data \(RecordingError.quote(rest))")
            }
            if rest.contains(UInt8(ascii: ":")) || "-{%".utf8.contains(rest[0]) { return .libinputRecord }
            throw RecordingError(path: path, line: lineNumber, kind: .unknownFormat,
                                 expected: expectedRecording, found: RecordingError.quote(rest))
        }
        guard isComplete else { return nil }
        if !sawText {
            throw RecordingError(path: path, line: 0, kind: .emptyFile,
                                 expected: "an evemu, libinput record or evtest file", found: "an empty file")
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

/// Where a large recording file is read ahead of its reader's caller.
package enum RecordingReadAhead: Sendable {
    /// The reader reads a large evemu file's lines ahead on a thread of its own (`ReadAhead`).
    case lines
    /// The caller runs the whole reader on another thread (`EventReadAhead`); it reads its lines itself.
    case events
}

/// `path` as messages name it: `-` (standard input) as `<stdin>`, any other path as it is.
package func recordingDisplayName(_ path: String) -> String { LineInput.displayName(path) }

/// Opens a recorded gesture file of any format pinchlab reads, detected by content. The file is opened once
/// and read front to back, so `path` may be a pipe, and `-` reads standard input.
///
/// - Parameters:
///   - path: the recording (or the `.desc` half of an old split evemu recording).
///   - secondPath: the `.events` half of a split evemu recording.
///   - selector: which device of a multi-device `libinput record` file to read. An evemu file holds
///     one device; asking it for another index or a node is an error.
public func openRecording(path: String, secondPath: String? = nil,
                          device selector: RecordingDeviceSelector = .firstTouchDevice) throws -> any RecordingSource {
    try openRecording(path: path, secondPath: secondPath, device: selector, readAhead: .lines)
}

/// `openRecording(path:secondPath:device:)`, saying who reads a large evemu file ahead: the reader's
/// own thread for lines (`.lines`), or none, its caller running the whole reader on another thread
/// (`.events`, `EventReadAhead`).
package func openRecording(path: String, secondPath: String? = nil, device selector: RecordingDeviceSelector,
                           readAhead: RecordingReadAhead) throws -> any RecordingSource {
    let input = try LineInput(path: path)
    input.readsAheadWhenWorthIt = readAhead == .lines
    switch try RecordingInputFormat.detect(input) {
    case .evemu:
        let reader = try EvemuReader(input: input, eventsPath: secondPath)
        try requireTheOneDevice(of: reader, kind: "an evemu file", selected: selector, path: input.path)
        return reader
    case .libinputRecord:
        try refuseSecondFile(secondPath, besides: "a libinput record")
        return try LibinputRecordReader(input: input, selecting: selector)
    case .evtest:
        try refuseSecondFile(secondPath, besides: "an evtest log")
        let reader = try EvtestReader(input: input)
        try requireTheOneDevice(of: reader, kind: "an evtest log", selected: selector, path: input.path)
        return reader
    }
}

/// Refuses a request for another device than the one a one-device file (`kind`) holds.
private func requireTheOneDevice(of reader: any RecordingSource, kind: String, selected selector: RecordingDeviceSelector,
                                 path: String) throws {
    switch selector {
    case .firstTouchDevice, .index(0): return
    case .index, .node:
        throw RecordingError(path: path, line: 0, kind: .noSuchDevice,
                             expected: "device 0 (\(kind) holds one device, \(RecordingError.quote(reader.device.name)))",
                             found: "a request for \(selector)")
    }
}

/// Refuses the second file of a split recording given with a format that never comes split.
private func refuseSecondFile(_ secondPath: String?, besides format: String) throws {
    guard let secondPath else { return }
    throw RecordingError(path: LineInput.displayName(secondPath), line: 0, kind: .unknownFormat,
                         expected: "no second file (only evemu recordings come split in two)",
                         found: "a second file with \(format)")
}
