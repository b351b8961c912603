import Foundation
import PinchlabTestSupport
import Testing

/// `--exit-after-idle` is checked by one rule for `live` and `record` (#42 18: `record` took `inf`
/// and waited forever while `live` refused it).
@Suite(.blocking) struct ExitAfterIdleCLITests {
    @Test(arguments: ["inf", "1e999", "nan", "0", "-1", "+infinity"])
    func bothCommandsRefuseAValueThatIsNotPositiveAndFinite(value: String) throws {
        var messages: [String] = []
        for command in ["record", "live"] {
            // The device does not exist: the value is refused before it is looked for.
            let r = try CLI.run([command, "/nonexistent-pinchlab-dir/event0", "-o", "/dev/null", "--exit-after-idle", value]
                .filter { command == "record" || ($0 != "-o" && $0 != "/dev/null") }, timeout: 20)
            #expect(r.status == 64, "\(command) \(value): \(r.stderr)")
            let message = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
            // Whole: "--exit-after-idle must be a positive, finite number of seconds", the usage.
            try Golden.expect(r, is: "errors-exit-after-idle-\(command)-" + String((value).map { $0.isLetter || $0.isNumber ? $0 : "-" }))
            messages.append(message)
        }
        #expect(messages[0] == messages[1], "one message for both")
    }
}
