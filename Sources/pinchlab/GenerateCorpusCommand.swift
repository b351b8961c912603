import ArgumentParser
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

        Example:
          pinchlab generate-corpus Fixtures/corpus
        """
    )

    @Argument(help: "The directory to write into (created if missing).")
    var directory: String

    func run() throws {
        try reportingErrors {
            let entries = StandardCorpus.entries()
            try CorpusFiles.write(entries: entries, to: directory)
            try printLine("wrote \(entries.count) recordings and \(CorpusFiles.manifestName) to \(directory)")
        }
    }
}
