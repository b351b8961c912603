import Foundation
import Glibc
import PinchlabTestSupport
import Testing

/// The Debian tools, root-only mounts and configuration the command-line tests need, beside
/// PinchlabTestSupport's `Prerequisite`s (the shared recordings, FUSE, root). `Prerequisite.all`
/// is what `.ci/run` (PINCHLAB_TESTS_REQUIRE_ALL=1) checks is here, by name.
extension Prerequisite {
    static let libinput = executable("/usr/bin/libinput", "needs libinput-tools (/usr/bin/libinput; scripts/setup-debian)")
    static let libinputAnalyzeRecording = executable("/usr/libexec/libinput/libinput-analyze-recording",
                                                     "needs libinput-tools' `libinput analyze recording` (scripts/setup-debian)")
    static let chromium = executable(Chromium.executable, "needs Debian's chromium (\(Chromium.executable); scripts/setup-debian)")
    static let evtest = executable(EvtestCLITests.evtest, "needs Debian's evtest (\(EvtestCLITests.evtest); scripts/setup-debian)")
    static let rsvgConvert = executable("/usr/bin/rsvg-convert", "needs rsvg-convert (librsvg2-bin; scripts/setup-debian)")
    static let python3 = executable("/usr/bin/python3", "needs Debian's python3 (scripts/setup-debian)")
    static let man = executable("/usr/bin/man", "needs man (man-db; scripts/setup-debian)")
    static let lisgd = executable("/usr/bin/lisgd", "needs Debian's lisgd (/usr/bin/lisgd; scripts/setup-debian)")
    static let runuser = executable("/usr/sbin/runuser", "needs runuser (util-linux)")
    static let smallTmpfs = Prerequisite(description: "needs to mount a 64 KiB tmpfs (root)") { SmallTmpfs.isPermitted }
    /// A fuse.conf that leaves user_allow_other out, as Debian's does.
    static let fuseConfWithoutUserAllowOther = Prerequisite(description: "needs /etc/fuse.conf without user_allow_other (Debian's default)") {
        let conf = (try? String(contentsOfFile: "/etc/fuse.conf", encoding: .utf8)) ?? ""
        return !conf.split(separator: "\n").contains {
            $0.split(separator: "#", omittingEmptySubsequences: false).first?.trimmingCharacters(in: .whitespaces) == "user_allow_other"
        }
    }

    static let all: [Prerequisite] = [sharedRecordings, libinput, libinputAnalyzeRecording, fuse, chromium, evtest, rsvgConvert, python3,
                                      man, lisgd, runuser, root, smallTmpfs, fuseConfWithoutUserAllowOther, gnuTime]
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
