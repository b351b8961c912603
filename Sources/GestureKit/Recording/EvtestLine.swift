import Glibc

/// One line of an `evtest` log as people paste it: what is left once the marks of the paste are
/// taken off (blank space, `> ` quote prefixes of a mail or an issue reply, any depth).
///
/// `LineInput` has already removed a Windows line end (`\r`). evtest's own indentation carries no
/// meaning the words do not (`Event code` is always under `Event type`), so it goes too.
enum EvtestLine {
    /// The line's text after leading blank space and quote prefixes (`>`, `> > `, `>>`).
    @inline(__always)
    static func content(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var first = 0
        while first < line.count && (LineScanner.isSpace(line[first]) || line[first] == UInt8(ascii: ">")) { first += 1 }
        return UnsafeBufferPointer(rebasing: line[first...])
    }

    /// Whether `text` (a line's `content`) begins with `prefix`.
    @inline(__always)
    static func starts(_ text: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            text.count >= expected.count && memcmp(text.baseAddress!, expected.baseAddress!, expected.count) == 0
        }
    }

    /// A Markdown code fence (```` ``` ````, ```` ```text ````), which an issue's paste is wrapped in.
    static func isCodeFence(_ text: UnsafeBufferPointer<UInt8>) -> Bool { starts(text, with: "```") || starts(text, with: "~~~") }

    /// A shell prompt running evtest, the first line of many pastes: `$ evtest /dev/input/event5`,
    /// `# evtest`, `user@host:~$ sudo evtest --grab /dev/input/event5`. The word `evtest` must be
    /// the command: what is before it (once `sudo` is taken off) ends with the prompt's `$` or `#`,
    /// or is nothing, so a comment that merely mentions evtest is not one.
    static func isEvtestPrompt(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let word = Array("evtest".utf8)
        guard text.count >= word.count else { return false }
        for start in 0...(text.count - word.count) where text[start] == word[0] {
            guard zip(text[start...], word).allSatisfy({ $0 == $1 }) else { continue }
            let after = start + word.count
            guard after == text.count || LineScanner.isSpace(text[after]) else { continue }
            var end = start
            while end > 0 && LineScanner.isSpace(text[end - 1]) { end -= 1 }
            let sudo = Array("sudo".utf8)
            if end >= sudo.count && Array(text[(end - sudo.count)..<end]) == sudo
                && (end == sudo.count || LineScanner.isSpace(text[end - sudo.count - 1]) || text[end - sudo.count - 1] == UInt8(ascii: "$")
                    || text[end - sudo.count - 1] == UInt8(ascii: "#")) {
                end -= sudo.count
                while end > 0 && LineScanner.isSpace(text[end - 1]) { end -= 1 }
            }
            return end == 0 || text[end - 1] == UInt8(ascii: "$") || text[end - 1] == UInt8(ascii: "#")
        }
        return false
    }

    /// The lines only evtest's header begins with: the first line of the device part, or an
    /// event line. Format detection decides on these.
    static func isEvtestHeaderOrEvent(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        starts(text, with: "Input driver version is") || starts(text, with: "Input device ID:")
            || starts(text, with: "Input device name:") || starts(text, with: "Supported events:")
            || starts(text, with: "Event: time ") || starts(text, with: "No device specified, trying to scan")
            || starts(text, with: "Available devices:")
            || (starts(text, with: "Event type ") && text.count > 11 && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[11]))
    }
}
