import ArgumentParser
import Foundation
import GestureLab

struct GenerateCorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-corpus",
        abstract: "Write the labelled gesture corpus (evemu recordings + manifest.json) into a directory.",
        discussion: """
        The corpus is synthesized from recipes: human-like finger paths (minimum-jerk motion, staggered \
        landing and lifting, sensor noise at the device's fuzz or 0.05 mm when it reports none, 7-14 ms \
        scan intervals) on a touchpad \
        and a touchscreen, each labelled with the gesture meant and the outcome meant. Every file's seed \
        and recipe are in the manifest with the synthesizer's frame interval and noise, and \
        regenerating writes identical bytes.

        Examples:
          pinchlab generate-corpus Fixtures/corpus
          pinchlab generate-corpus /tmp/big --variants 22
          pinchlab generate-corpus Fixtures/corpus \\
              --session Fixtures/sessions/touchscreen-session.evemu
        """
    )

    @Argument(help: "The directory to write into (created if missing).", completion: .directory)
    var directory: String

    @Option(help: ArgumentHelp("Draw each recipe this many times (variant 1 is the shipped file; 22 make 1,034 files), "
                               + "for a large corpus to tune or benchmark on.", valueName: "n"))
    var variants: Int = 1

    @Option(help: ArgumentHelp("Also write a multi-gesture touchscreen session here: six of the corpus's recipes "
                               + "one after another with 2.5 s idle between them.", valueName: "file"), completion: .file(extensions: ["evemu"]))
    var session: String?

    func validate() throws {
        guard (1...1000).contains(variants) else { throw ValidationError("--variants must be within 1...1000") }
    }

    func run() throws {
        try reportingErrors {
            // Told of a stop: the corpus is taken back between two recordings (a second stop ends
            // it at once, as every told command).
            StopSignals.install()
            let entries = StandardCorpus.entries(variants: variants)
            guard try CorpusFiles.write(entries: entries, to: directory, shouldStop: { StopSignals.requested }) else {
                printError("pinchlab: interrupted; nothing was written (the recordings written before the stop were removed)")
                throw ExitStatus.interrupted.exitCode
            }
            try printLine("wrote \(entries.count) recordings and \(CorpusFiles.manifestName) to \(directory)")
            if let session {
                let parent = (session as NSString).deletingLastPathComponent
                if !parent.isEmpty { try CorpusFiles.makeDirectory(parent) }
                try GestureSession.touchscreen.write(to: session)
                try printLine("wrote the session of \(GestureSession.touchscreen.files.count) gestures to \(session)")
            }
        }
    }
}
