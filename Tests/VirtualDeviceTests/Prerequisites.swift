import Foundation
import Glibc
import Testing

/// What these tests need besides the package: FUSE above all (every virtual device is a FUSE
/// mount), root for a mount of their own, and Debian tools of scripts/setup-debian. A test that
/// needs one is enabled only where it is (`@Suite(.needs(.fuse))`): elsewhere `swift test` skips
/// it and says why, instead of failing it or returning early to pass. `PINCHLAB_TESTS_REQUIRE_ALL=1`
/// (`.ci/run` exports it) enables every one of them whatever is missing, so that there a missing
/// prerequisite fails instead. (CLITests/Prerequisites.swift is the same for the command-line tests.)
struct Prerequisite: Sendable, CustomStringConvertible {
    /// What the test needs, as the skip says it ("needs ...").
    let description: String
    let isPresent: @Sendable () -> Bool

    static let isRequired = ProcessInfo.processInfo.environment["PINCHLAB_TESTS_REQUIRE_ALL"] == "1"

    static func executable(_ path: String, _ description: String) -> Prerequisite {
        Prerequisite(description: description) { FileManager.default.isExecutableFile(atPath: path) }
    }

    static let fuse = Prerequisite(description: "needs FUSE (/dev/fuse and fuse3; scripts/setup-debian)") {
        access("/dev/fuse", R_OK | W_OK) == 0
    }
    static let root = Prerequisite(description: "needs root (mounts a file system of its own)") { geteuid() == 0 }
    static let libinput = executable(LibinputRecordTests.libinput, "needs libinput-tools (/usr/bin/libinput; scripts/setup-debian)")
    static let evemuDescribe = executable(EvemuToolTests.describe, "needs evemu-tools (/usr/bin/evemu-describe; scripts/setup-debian)")
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
