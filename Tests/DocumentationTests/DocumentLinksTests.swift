import Foundation
import Testing

/// Every relative link of README.md and docs/**/*.md names a file of the package, and a `#anchor`
/// one of its headings (as GitHub makes them: lower case, punctuation dropped, spaces as hyphens).
@Suite struct DocumentLinksTests {
    static func links(in text: String) -> [String] {
        let pattern = /\]\(([^)\s]+)\)/
        return text.matches(of: pattern).map { String($0.output.1) }
    }

    static func anchors(in text: String) -> Set<String> {
        var found: Set<String> = []
        for line in text.components(separatedBy: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
            found.insert(kept.replacingOccurrences(of: " ", with: "-"))
        }
        return found
    }

    @Test func everyRelativeLinkResolves() throws {
        let root = DocumentedCommandsTests.packageRoot
        var checked = 0
        for url in try DocumentedCommandsTests.documents() {
            let text = try String(contentsOf: url, encoding: .utf8)
            let relative = String(url.path.dropFirst(root.path.count + 1))
            for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let targetRelative = target.path.hasPrefix(root.path + "/") ? String(target.path.dropFirst(root.path.count + 1)) : target.path
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(relative): \(link): no such file (\(targetRelative))")
                    continue
                }
                if parts.count == 2 {
                    let anchors = Self.anchors(in: try String(contentsOf: target, encoding: .utf8))
                    #expect(anchors.contains(parts[1]), "\(relative): \(link): no heading '\(parts[1])' (\(anchors.sorted()))")
                }
            }
        }
        #expect(checked > 40, "only \(checked) links found")
    }

    @Test func aBrokenLinkIsFound() {
        #expect(Self.links(in: "see [a](docs/a.md#b) and [web](https://x.org) and ![p](p.svg)") == ["docs/a.md#b", "https://x.org", "p.svg"])
        #expect(Self.anchors(in: "## `live --web`\n# In a settings file\n") == ["live---web", "in-a-settings-file"])
    }
}
