import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// What a test needs besides the package and Swift: the real recordings beside this repository's
/// CI, FUSE, root, a Debian tool of scripts/setup-debian. A test that needs one is enabled only
/// where it is there (`@Test(.needs(.fuse))`), so that `swift test` on a bare clone skips it and
/// says why instead of failing it, and never returns early to pass. Each test target adds the
/// tools it needs (`extension Prerequisite { static let chromium = executable(...) }`).
///
/// `PINCHLAB_TESTS_REQUIRE_ALL=1` (`.ci/run` exports it) enables every one of them whatever is
/// missing: there a missing prerequisite fails its tests instead of skipping them.
public struct Prerequisite: Sendable, CustomStringConvertible {
    /// What the test needs, as the skip says it ("needs ...").
    public let description: String
    public let isPresent: @Sendable () -> Bool

    public init(description: String, isPresent: @escaping @Sendable () -> Bool) {
        self.description = description
        self.isPresent = isPresent
    }

    public static let isRequired = ProcessInfo.processInfo.environment["PINCHLAB_TESTS_REQUIRE_ALL"] == "1"

    public static func executable(_ path: String, _ description: String) -> Prerequisite {
        Prerequisite(description: description) { FileManager.default.isExecutableFile(atPath: path) }
    }

    /// The package's root (this file is Tests/PinchlabTestSupport/Prerequisite.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// ../shared/recordings: other people's recordings, beside the clone on CI only (never copied
    /// into the project; Fixtures/real-recordings.json labels them).
    public static let sharedRecordingsDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/recordings")
    public static func sharedRecording(_ name: String) -> String { sharedRecordingsDirectory.appendingPathComponent(name).path }

    public static let sharedRecordings = Prerequisite(description: "needs ../shared/recordings (beside this repository's CI only)") {
        FileManager.default.fileExists(atPath: sharedRecordingsDirectory.path)
    }
    public static let fuse = Prerequisite(description: "needs FUSE (/dev/fuse and fuse3; scripts/setup-debian)") {
        access("/dev/fuse", R_OK | W_OK) == 0
    }
    public static let root = Prerequisite(description: "needs root") { geteuid() == 0 }
}

extension Trait where Self == ConditionTrait {
    /// Enabled where every one of `prerequisites` is here, or wherever PINCHLAB_TESTS_REQUIRE_ALL=1;
    /// skipped otherwise, with what is missing as the reason.
    public static func needs(_ prerequisites: Prerequisite...) -> Self {
        let missing = prerequisites.filter { !$0.isPresent() }
        return .enabled(if: Prerequisite.isRequired || missing.isEmpty,
                        Comment(rawValue: (missing.isEmpty ? prerequisites : missing).map(\.description).joined(separator: "; ")))
    }
}
