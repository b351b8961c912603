@testable import GestureTools
import Testing

/// The YAML subset the tools' files are read in: what it reads, with its lines, and what it
/// refuses, at its line.
@Suite struct MiniYAMLTests {
    private func yamlError(_ text: String) -> YAMLSyntaxError? {
        do { _ = try MiniYAML.parse(text); return nil } catch { return error }
    }

    @Test func theSubsetReadsBlocksFlowsQuotesAndLines() throws {
        let text = """
        # a comment
        swipe:
          3:
            left: {command: "xdotool key alt+Right", threshold: 0.5}  # inline
            up:
              command: 'it''s up'
        list:
        - a
        - [b, "c, d"]
        -
          - nested
        - key: value
          other: 2
        block: |
          line one
          line two
        folded: >-
          one
          two
        ---
        context: {application: Firefox}
        """
        let documents = try MiniYAML.parse(text)
        #expect(documents.count == 2)
        let keymap = documents[0]
        #expect(keymap["swipe"]?["3"]?["left"]?["command"]?.text == "xdotool key alt+Right")
        #expect(keymap["swipe"]?["3"]?["left"]?["threshold"]?.plain == "0.5")
        #expect(keymap["swipe"]?["3"]?["left"]?.line == 4)
        #expect(keymap["swipe"]?["3"]?["up"]?["command"]?.text == "it's up")
        #expect(keymap["swipe"]?["3"]?["up"]?["command"]?.line == 6)
        let list = try #require(keymap["list"]?.items)
        #expect(list.count == 4)
        #expect(list[1].items?.map(\.text) == ["b", "c, d"])
        #expect(list[2].items?.first?.text == "nested")
        #expect(list[3]["other"]?.plain == "2" && list[3]["other"]?.line == 13)
        #expect(keymap["block"]?.text == "line one\nline two\n")
        #expect(keymap["folded"]?.text == "one two")
        #expect(documents[1]["context"]?["application"]?.text == "Firefox")
    }

    @Test func outsideTheSubsetIsRefusedAtItsLine() {
        #expect(yamlError("a: 1\nb:\n\tc: 2")?.line == 3)
        #expect(yamlError("a: 1\nb:\n\tc: 2")?.expected == "spaces for indentation, not a tab")
        #expect(yamlError("a: 1\nb: 2\na: 3")?.line == 3)
        #expect(yamlError("a: &x 1\nb: *x")?.line == 1)
        #expect(yamlError("a:\n  b: 1\n   c: 2")?.line == 3)
        #expect(yamlError("a: [1, 2\nb: 3")?.line == 1)
        #expect(yamlError("a: \"open\nb: 3")?.line == 1)
        #expect(yamlError("a: b: c")?.line == 1)
        #expect(yamlError("? a\n: b")?.line == 1)
        #expect(yamlError("a: {x: 1, x: 2}")?.line == 1)
        #expect(yamlError("a: 1\n- b")?.line == 2)
    }
}
