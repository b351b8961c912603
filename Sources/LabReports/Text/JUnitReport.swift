import GestureLab

/// A check's results as JUnit XML, the format CI systems (GitLab, Jenkins, GitHub actions that read
/// test reports) display: one `testsuite` for the corpus, one `testcase` per file, a `failure` with
/// the mismatch, an `error` for a recording that could not be read, `skipped` for a known mismatch
/// (with its reason). A fragile match (`CheckResult.fragile`) carries its margin as the testcase's
/// `fragile` property (as pytest's `record_property` writes one), or with `strict` is a failure of
/// type `fragile`. Everything from the manifest or a recording is escaped.
package enum JUnitReport {
    package static func xml(suite: String, results: [CheckResult], strict: Bool = false,
                           message: (CheckResult) -> String) -> String {
        // An unreadable file is an error, counted apart.
        let failures = results.filter { $0.status != .unreadable && $0.fails(strict: strict) }.count
        let errors = results.filter { $0.status == .unreadable }.count
        let skipped = results.filter { $0.status == .knownMismatch }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"pinchlab check\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        for result in results {
            let open = "    <testcase classname=\"\(escape(suite))\" name=\"\(escape(result.entry.file))\""
            let text = escape(message(result))
            switch result.status {
            case .match where result.fragile != nil && strict:
                xml += open + ">\n      <failure type=\"fragile\" message=\"\(text)\">\(text)</failure>\n    </testcase>\n"
            case .match where result.fragile != nil:
                xml += open + ">\n      <properties>\n        <property name=\"fragile\" value=\"\(text)\"/>\n      </properties>\n    </testcase>\n"
            case .match:
                xml += open + "/>\n"
            case .mismatch, .unexpectedMatch:
                xml += open + ">\n      <failure type=\"\(result.status.rawValue)\" message=\"\(text)\">\(text)</failure>\n    </testcase>\n"
            case .unreadable:
                xml += open + ">\n      <error type=\"unreadable\" message=\"\(text)\">\(text)</error>\n    </testcase>\n"
            case .knownMismatch:
                xml += open + ">\n      <skipped message=\"\(text)\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// XML-safe text with line breaks kept (`XMLText`).
    package static func escape(_ text: String) -> String { XMLText.escape(text, whitespace: .kept) }
}
