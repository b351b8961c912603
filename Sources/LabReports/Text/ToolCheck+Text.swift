import GestureKit
import GestureLab
import GestureTools

/// What `check CORPUS --tool NAME` prints and writes of a corpus scored under a tool.
package enum ToolCheckText {
    /// `expected SWIPE LEFT 3 fingers, fired SWIPE UP 3 fingers (12.0 % against action_execute_threshold 20.0 %)`.
    package static func message(_ result: ToolCheckResult) -> String {
        switch result.status {
        case .unreadable:
            return "cannot be replayed: " + TerminalText.escaped(result.error.map { "\($0)" } ?? "")
        case .notApplicable:
            return "not applicable: the tool reads another kind of device"
        case .match, .mismatch:
            let expected = result.expected.isEmpty ? "nothing" : result.expected.map(\.text).joined(separator: "; ")
            let fired = result.fired.isEmpty ? "nothing" : result.fired.map(\.text).joined(separator: "; ")
            return (result.status == .match ? "matches: " : "") + "expected \(expected), fired \(fired)"
        }
    }

    /// The closing line: `touchegg: 49 files: 20 match (2 fragile), 10 mismatches, 19 not applicable`.
    package static func totals(_ tool: GestureToolName, _ results: [ToolCheckResult]) -> String {
        func count(_ status: ToolCheckResult.Status) -> Int { results.filter { $0.status == status }.count }
        let fragile = results.filter { $0.fragile != nil }.count
        var parts = ["\(count(.match)) match" + (fragile > 0 ? " (\(fragile) fragile)" : "")]
        let mismatches = count(.mismatch)
        if mismatches > 0 { parts.append("\(mismatches) mismatch" + (mismatches == 1 ? "" : "es")) }
        if count(.notApplicable) > 0 { parts.append("\(count(.notApplicable)) not applicable") }
        if count(.unreadable) > 0 { parts.append("\(count(.unreadable)) unreadable") }
        return "\(tool.rawValue): \(results.count) file\(results.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    /// JUnit XML: one testcase per file, a failure per mismatch, skipped where not applicable.
    /// As `JUnitReport.xml` for `check`: with `strict`, a fragile match is a failure (`check --tool
    /// --strict` exits 1 for it), else a `fragile` property, so the report and the exit status agree.
    package static func junit(suite: String, tool: GestureToolName, results: [ToolCheckResult], strict: Bool = false) -> String {
        let failures = results.filter { $0.status == .mismatch || (strict && $0.status == .match && $0.fragile != nil) }.count
        let errors = results.filter { $0.status == .unreadable }.count
        let skipped = results.filter { $0.status == .notApplicable }.count
        let name = JUnitReport.escape("\(suite) under \(tool.rawValue)")
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"pinchlab check --tool \(tool.rawValue)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(name)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        for result in results {
            let open = "    <testcase classname=\"\(name)\" name=\"\(JUnitReport.escape(result.entry.file))\""
            let text = JUnitReport.escape(message(result))
            switch result.status {
            case .match where result.fragile != nil:
                let said = JUnitReport.escape(result.fragile?.text ?? "")
                xml += open + (strict ? ">\n      <failure type=\"fragile\" message=\"\(said)\">\(said)</failure>\n    </testcase>\n"
                                      : ">\n      <properties>\n        <property name=\"fragile\" value=\"\(said)\"/>\n      </properties>\n    </testcase>\n")
            case .match: xml += open + "/>\n"
            case .mismatch: xml += open + ">\n      <failure type=\"mismatch\" message=\"\(text)\">\(text)</failure>\n    </testcase>\n"
            case .unreadable: xml += open + ">\n      <error type=\"unreadable\" message=\"\(text)\">\(text)</error>\n    </testcase>\n"
            case .notApplicable: xml += open + ">\n      <skipped message=\"\(text)\"/>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
