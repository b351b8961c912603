import Foundation
import PinchlabTestSupport
import Testing

/// Debian's `chromium`, headless, for the viewer's tests: a real browser loads the page, runs its
/// script and reports the DOM or a screenshot. Every run has its own temporary profile and a bound
/// on its time; as root it needs `--no-sandbox`.
enum Chromium {
    static let executable = "/usr/bin/chromium"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The DOM after the page's scripts ran (`--dump-dom`); with a virtual time budget, after
    /// that much of the page's own time has passed too (an image decoded, a timer fired).
    static func dumpDOM(_ url: String, virtualTimeBudgetMS: Int? = nil, timeout: TimeInterval = 60) throws -> String {
        let budget = virtualTimeBudgetMS.map { ["--virtual-time-budget=\($0)"] } ?? []
        return try run(budget + ["--dump-dom", url], timeout: timeout).stdout
    }

    /// Every console message of the page while it loads and runs its scripts (`--enable-logging`):
    /// the scripts' own `console` calls and every uncaught error, a syntax error among them, each
    /// with the line of the page it names.
    static func consoleMessages(_ url: String, timeout: TimeInterval = 60) throws -> [(line: Int?, text: String)] {
        let stderr = try run(["--enable-logging=stderr", "--v=0", "--dump-dom", url], timeout: timeout).stderr
        // Chromium's own log lines: [pid:tid:time:INFO:CONSOLE:91] "Uncaught SyntaxError: ...", source: file:///page.html (91)
        return stderr.split(separator: "\n").compactMap { line -> (line: Int?, text: String)? in
            guard line.contains(":CONSOLE"), let open = line.range(of: "] \""),
                  let close = line.range(of: "\", source: ", options: .backwards), open.upperBound <= close.lowerBound else { return nil }
            let number = line[close.upperBound...].split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) }
            return (number, String(line[open.upperBound..<close.lowerBound]))
        }
    }

    /// A PNG of the page at `width` x `height` CSS pixels (device scale 1).
    static func screenshot(_ url: String, to path: String, width: Int = 1280, height: Int = 900,
                           timeout: TimeInterval = 60) throws {
        try? FileManager.default.removeItem(atPath: path)
        let result = try run(["--screenshot=\(path)", "--window-size=\(width),\(height)", "--hide-scrollbars", url],
                             timeout: timeout)
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "chromium wrote no screenshot: \(result.stderr.suffix(800))")
        }
    }

    /// The text of `<pre id="ID">` in a dumped DOM (entities decoded).
    static func preText(_ dom: String, id: String) -> String? {
        guard let open = dom.range(of: "<pre id=\"\(id)\">") else { return nil }
        guard let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex) else { return nil }
        return decodeEntities(String(dom[open.upperBound..<close.lowerBound]))
    }

    /// The JSON object written into `<pre id="ID">`.
    static func preJSON(_ dom: String, id: String) throws -> Any {
        guard let text = preText(dom, id: id), !text.isEmpty else {
            throw Failure(description: "no <pre id=\"\(id)\"> with text in the page: \(dom.prefix(400))")
        }
        return try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func fileURL(_ path: String, fragment: String? = nil) -> String {
        URL(fileURLWithPath: path).absoluteString + (fragment.map { "#" + $0 } ?? "")
    }

    private static func run(_ arguments: [String], timeout: TimeInterval) throws -> (stdout: String, stderr: String) {
        guard isInstalled else {
            throw Failure(description: "\(executable) is missing: scripts/setup-debian installs Debian's chromium")
        }
        let process = Process()
        let output = try ProcessOutputFiles(of: process)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                             "--user-data-dir=\(output.directory.appendingPathComponent("profile").path)"] + arguments
        try process.start()
        let finished = CLI.waitForExit(process, timeout: timeout)
        let result = try output.result(of: process)
        guard finished else { throw Failure(description: "chromium did not finish within \(timeout) s: \(result.stderr.suffix(800))") }
        guard result.status == 0 else {
            throw Failure(description: "chromium exited with \(result.status): \(result.stderr.suffix(800))")
        }
        return (result.stdout, result.stderr)
    }
}
