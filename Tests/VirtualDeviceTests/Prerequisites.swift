import PinchlabTestSupport

/// What these tests need besides PinchlabTestSupport's `Prerequisite`s (FUSE above all: every
/// virtual device is a FUSE mount; root for a mount of their own): Debian tools of
/// scripts/setup-debian.
extension Prerequisite {
    static let libinput = executable(LibinputRecordTests.libinput, "needs libinput-tools (/usr/bin/libinput; scripts/setup-debian)")
    static let evemuDescribe = executable(EvemuToolTests.describe, "needs evemu-tools (/usr/bin/evemu-describe; scripts/setup-debian)")
}
