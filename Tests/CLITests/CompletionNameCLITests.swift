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
        let help = try CLI.run(["replay", "--help"], environment: ["COLUMNS": "200"])
        #expect(help.stdout.contains("appstore-card-present"))
        #expect(help.stdout.contains("slide-in-menu"))
        #expect(help.stdout.contains("seed004-menu (slide-in-menu)"))
        let wrong = try CLI.run(["replay", Self.file, "--completion", "seed005-menu"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("appstore-card-dismiss"), "the refusal lists the names: \(wrong.stderr)")
    }
}
