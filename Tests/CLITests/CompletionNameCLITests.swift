import Foundation
import PinchlabTestSupport
import Testing

/// `--completion` takes the timings by what they animate (`appstore-card-present`), and the seed
/// documents' numbers (`seed003-present`) as aliases that replay the same.
@Suite(.blocking) struct CompletionNameCLITests {
    static let file = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")

    @Test(arguments: [("appstore-card-present", "seed003-present"), ("appstore-card-dismiss", "seed003-dismiss"),
                      ("appstore-cell-bounce", "seed003-bounce"), ("slide-in-menu", "seed004-menu")])
    func aSeedNameReplaysAsItsReadableName(readable: String, seed: String) throws {
        let byName = try CLI.run(["replay", Self.file, "--json", "--completion", readable])
        let byAlias = try CLI.run(["replay", Self.file, "--json", "--completion", seed])
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byAlias.status == 0, "\(byAlias.stderr)")
        #expect(byName.stdout == byAlias.stdout)
        #expect(byName.stdout != (try CLI.run(["replay", Self.file, "--json", "--completion", "linear"])).stdout,
                "the timing changes the completion's steps")
    }

    @Test func helpListsTheReadableNamesAndTheAliases() throws {
        // The help whole on a wide terminal: "appstore-card-present", "slide-in-menu", "seed004-menu
        // (slide-in-menu)" among the names; the refusal lists the names too (appstore-card-dismiss).
        var transcript = ""
        try Golden.run(["replay", "--help"], into: &transcript, environment: ["COLUMNS": "200"])
        #expect(try Golden.run(["replay", Self.file, "--completion", "seed005-menu"], into: &transcript).status == 64)
        try Golden.expect(transcript, is: "help-replay-200-columns-and-an-unknown-completion")
    }
}
