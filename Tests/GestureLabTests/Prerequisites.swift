import Foundation
import Testing

/// What some of these tests need besides the package: the real recordings of ../shared/recordings,
/// beside this repository's CI only. A test that needs them is enabled only where they are
/// (`@Test(.needs(.sharedRecordings))`): a bare clone skips it and `swift test` says why, instead
/// of failing it or returning early to pass. `PINCHLAB_TESTS_REQUIRE_ALL=1` (`.ci/run` exports it)
/// enables it whatever is missing, so that there a missing prerequisite fails instead.
/// (CLITests/Prerequisites.swift is the same for the command-line tests, with the Debian tools.)
struct Prerequisite: Sendable, CustomStringConvertible {
    /// What the test needs, as the skip says it ("needs ...").
    let description: String
    let isPresent: @Sendable () -> Bool

    static let isRequired = ProcessInfo.processInfo.environment["PINCHLAB_TESTS_REQUIRE_ALL"] == "1"

    static let sharedRecordings = Prerequisite(description: "needs ../shared/recordings (beside this repository's CI only)") {
        FileManager.default.fileExists(atPath: ReleaseMarginExactnessTests.shared.path)
    }
}

extension Trait where Self == ConditionTrait {
    /// Enabled where every one of `prerequisites` is here, or wherever PINCHLAB_TESTS_REQUIRE_ALL=1;
    /// skipped otherwise, with what is missing as the reason.
    static func needs(_ prerequisites: Prerequisite...) -> Self {
        let missing = prerequisites.filter { !$0.isPresent() }
        return .enabled(if: Prerequisite.isRequired || missing.isEmpty,
                        Comment(rawValue: (missing.isEmpty ? prerequisites : missing).map(\.description).joined(separator: "; ")))
    }
}
