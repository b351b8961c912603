import Foundation
import Testing
import PinchlabTestSupport

/// What a user is told: `live --help` on permissions and grabbing, `libinput --verbose`, the
/// reason a picture cannot be written, and why a non-root `serve` cannot mount.
@Suite(.blocking) struct UsabilityCLITests {
    static let file = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")

    @Test func liveHelpSaysWhoMayReadTheDeviceAndThatItIsNotGrabbed() throws {
        let help = try CLI.run(["live", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        // The whole help (GoldenOutputTests' file), with its paragraph: "Permissions: reading
        // /dev/input/eventN needs membership of the input group (sudo usermod -aG input $USER, then
        // log in again) or a udev rule; without it, exit status 77. live only reads the device and
        // does not grab it (no EVIOCGRAB), so the desktop sees the same fingers and reacts to the
        // same pinch: try it in a window that ignores pinches, or on a served recording (below)."
        try Golden.expect(help, is: "help-live")
    }

    /// The other help texts this work changed, as an 80-column terminal shows them.
    @Test(arguments: [
        ("serve", """
        Needs /dev/fuse and fuse3 (scripts/setup-debian installs it). Run by a user
        other than root, the mount uses allow_other (so libinput and other users may
        open the node), which needs the line user_allow_other in /etc/fuse.conf;
        without it serve says so (status 69).
        """),
        ("stats", """
        out of the counts and reported apart. Frames are the file's (each ended by a
        SYN_REPORT), as replay counts them; a file `record` began with fingers down
        holds one more than record's count of device frames: the state at open.
        """),
        ("view", """
          -o, --output <out.html> The HTML file to write (default: FILE's name with
                                  .html, in the current directory).
        """),
    ])
    func changedHelpTexts(command: String, text: String) throws {
        let help = try CLI.run([command, "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(help.stdout.contains(text + "\n"), "\(help.stdout)")
    }

    @Test(.needs(.libinput, .fuse)) func libinputVerbosePassesLibinputsLogThrough() throws {
        // The whole help (GoldenOutputTests' file), which says: "--verbose runs `libinput
        // debug-events --verbose` and passes its whole output through to stderr (libinput's debug
        // log, e.g. its gesture state machine), without setting up the virtual node and the preload
        // library by hand."
        try Golden.expect(try CLI.run(["libinput", "--help"], environment: ["COLUMNS": "80"]), is: "help-libinput")
        let plain = try CLI.run(["libinput", Self.file])
        let verbose = try CLI.run(["libinput", Self.file, "--verbose"])
        #expect(plain.status == 0 && verbose.status == 0, "\(verbose.stderr)")
        // libinput's own log and verdict: its times and lines vary from run to run.
        #expect(!plain.stderr.contains("gesture state"), "no log unless asked")
        #expect(verbose.stderr.contains("gesture state GESTURE_STATE_NONE"), "libinput's gesture state machine: \(verbose.stderr.prefix(600))")
        #expect(verbose.stderr.contains("event0"))
        // The verdict is the same with the log (libinput's times may move by a ms between runs).
        // (A loaded machine may add a lateness warning to either run.)
        let kinds = { (text: String) in
            text.split(separator: "\n").filter { !$0.hasPrefix("  warning") }.map { $0.split(separator: ",").first ?? "" }
        }
        #expect(kinds(plain.stdout) == kinds(verbose.stdout), "\(plain.stdout)\n\(verbose.stdout)")
        #expect(verbose.stdout.contains("pinch, 2 fingers"))  // libinput's verdict
    }

    /// The picture's folder cannot be written: the message says why, in the system's words.
    @Test(arguments: [("/nonexistent-pinchlab-dir/x.svg", "No such file or directory"), ("/dev/full", "No space left on device")])
    func plotSaysWhyItCannotWriteThePicture(output: String, reason: String) throws {
        let r = try CLI.run(["plot", Self.file, "-o", output])
        #expect(r.status == 74)
        #expect(r.stderr.hasPrefix("pinchlab: \(output): "), "\(r.stderr)")
        #expect(r.stderr.contains(reason), "\(r.stderr)")
    }

    /// As a user other than root, with /etc/fuse.conf lacking user_allow_other, serve names that
    /// line (fusermount3's own words go only to its stderr). Root runs it as nobody, through runuser.
    @Test(.needs(.root, .runuser, .fuse, .fuseConfWithoutUserAllowOther))
    func serveAsAnotherUserNamesUserAllowOther() throws {
        // Right under /tmp, where nobody may make it: /tmp/pinchlab-cli-tests is root's once another
        // test has made it.
        let dir = "/tmp/pinchlab-serve-nobody-\(getpid())"
        let r = try CLI.run(["-u", "nobody", "--", CLI.binary.path, "serve", Self.file, "--at", dir], timeout: 30,
                            executable: URL(fileURLWithPath: "/usr/sbin/runuser"), directory: URL(fileURLWithPath: "/tmp"))
        #expect(r.status == 69, "\(r.stderr)")
        // pinchlab's line; fusermount3 (a child) may print its own words beside it.
        #expect(r.stderr.contains("pinchlab: cannot mount a virtual evdev device at \(dir): mounting \(dir) failed: run by a user "
                                  + "other than root, a mount with allow_other (so that libinput and other users may open the "
                                  + "node) needs the line user_allow_other in /etc/fuse.conf: add it, or run as root\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("setuid fusermount3"), "not the wrong cause")  // fusermount3's own words, a child's
    }
}
