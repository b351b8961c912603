import CVirtualEvdev
import Foundation
import PinchlabTestSupport
import Testing

/// `vevdev_fuse_conf_allows_other`: whether a fuse.conf lets a non-root mount use allow_other.
@Suite(.blocking) struct FuseConfTests {
    func allows(_ text: String?) throws -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuse-\(UUID().uuidString).conf").path
        if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return vevdev_fuse_conf_allows_other(path)
    }

    @Test func onlyAnUncommentedLineAllows() throws {
        #expect(try allows("user_allow_other\n"))
        #expect(try allows("# mount_max = 1000\n  user_allow_other  # for pinchlab\n"))
        #expect(try allows("user_allow_other"), "no final newline")
        #expect(try !allows("#user_allow_other\n"))
        #expect(try !allows("# user_allow_other\nmount_max = 10\n"))
        #expect(try !allows("user_allow_other_not\n"))
        #expect(try !allows("mount_max user_allow_other\n"))
        #expect(try !allows(""))
        #expect(try !allows(nil), "a missing file allows nothing")
    }
}
