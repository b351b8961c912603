import Foundation
import Glibc
import Testing

/// What some tests need besides the package and Swift: the real recordings beside this repository's
/// CI, a Debian tool of scripts/setup-debian, root. A test that needs one is enabled only where it
/// is there (`@Test(.needs(.chromium))`), so that `swift test` on a bare clone skips it and says why
/// instead of failing it, and never returns early to pass.
///
/// `PINCHLAB_TESTS_REQUIRE_ALL=1` (`.ci/run` exports it) enables every one of them whatever is
/// missing: there a missing prerequisite fails its tests instead of skipping them, and
/// `everyPrerequisiteIsHere` names it.
struct Prerequisite: Sendable, CustomStringConvertible {
    /// What the test needs, as the skip says it ("needs ...").
    let description: String
    let isPresent: @Sendable () -> Bool

    static let isRequired = ProcessInfo.processInfo.environment["PINCHLAB_TESTS_REQUIRE_ALL"] == "1"

    static func executable(_ path: String, _ description: String) -> Prerequisite {
        Prerequisite(description: description) { FileManager.default.isExecutableFile(atPath: path) }
    }

    /// ../shared/recordings: other people's recordings, beside the clone on CI only (never copied
    /// into the project; Fixtures/real-recordings.json labels them).
    static let sharedRecordingsDirectory = CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/recordings")
    static func sharedRecording(_ name: String) -> String { sharedRecordingsDirectory.appendingPathComponent(name).path }
    static let sharedRecordings = Prerequisite(description: "needs ../shared/recordings (beside this repository's CI only)") {
        FileManager.default.fileExists(atPath: sharedRecordingsDirectory.path)
    }

    static let libinput = executable("/usr/bin/libinput", "needs libinput-tools (/usr/bin/libinput; scripts/setup-debian)")
    static let libinputAnalyzeRecording = executable("/usr/libexec/libinput/libinput-analyze-recording",
                                                     "needs libinput-tools' `libinput analyze recording` (scripts/setup-debian)")
    static let fuse = Prerequisite(description: "needs FUSE (/dev/fuse and fuse3; scripts/setup-debian)") {
        access("/dev/fuse", R_OK | W_OK) == 0
    }
    static let chromium = executable(Chromium.executable, "needs Debian's chromium (\(Chromium.executable); scripts/setup-debian)")
    static let evtest = executable(EvtestCLITests.evtest, "needs Debian's evtest (\(EvtestCLITests.evtest); scripts/setup-debian)")
    static let rsvgConvert = executable("/usr/bin/rsvg-convert", "needs rsvg-convert (librsvg2-bin; scripts/setup-debian)")
    static let python3 = executable("/usr/bin/python3", "needs Debian's python3 (scripts/setup-debian)")
    static let man = executable("/usr/bin/man", "needs man (man-db; scripts/setup-debian)")
    static let lisgd = executable("/usr/bin/lisgd", "needs Debian's lisgd (/usr/bin/lisgd; scripts/setup-debian)")
    static let runuser = executable("/usr/sbin/runuser", "needs runuser (util-linux)")
    static let root = Prerequisite(description: "needs root") { geteuid() == 0 }
    static let smallTmpfs = Prerequisite(description: "needs to mount a 64 KiB tmpfs (root)") { SmallTmpfs.isPermitted }
    /// A fuse.conf that leaves user_allow_other out, as Debian's does.
    static let fuseConfWithoutUserAllowOther = Prerequisite(description: "needs /etc/fuse.conf without user_allow_other (Debian's default)") {
        let conf = (try? String(contentsOfFile: "/etc/fuse.conf", encoding: .utf8)) ?? ""
        return !conf.split(separator: "\n").contains {
            $0.split(separator: "#", omittingEmptySubsequences: false).first?.trimmingCharacters(in: .whitespaces) == "user_allow_other"
        }
    }

    static let all: [Prerequisite] = [sharedRecordings, libinput, libinputAnalyzeRecording, fuse, chromium, evtest, rsvgConvert, python3,
                                      man, lisgd, runuser, root, smallTmpfs, fuseConfWithoutUserAllowOther]
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

@Suite struct PrerequisiteTests {
    /// Where every test must run (CI), what is missing is said once, by name, besides the failures
    /// of the tests that need it.
    @Test(.enabled(if: Prerequisite.isRequired, "runs with PINCHLAB_TESTS_REQUIRE_ALL=1 only (.ci/run)"))
    func everyPrerequisiteIsHere() {
        for prerequisite in Prerequisite.all {
            #expect(prerequisite.isPresent(), "PINCHLAB_TESTS_REQUIRE_ALL=1, but this machine lacks what a test \(prerequisite)")
        }
    }
}
