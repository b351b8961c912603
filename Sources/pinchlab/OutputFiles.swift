import ArgumentParser
import GestureKit

/// The two rules every output file of a command follows: it is never one of the run's inputs
/// (compared by identity on disk, so `./in.evemu`, a symbolic or a hard link are caught), and it is
/// written whole or not at all (`StagedOutputFile`, through symbolic links too).
enum OutputFile {
    /// Refuses `output` when it names one of `inputs` (or, when an input is `-`, the file on
    /// standard input): writing it would destroy that input before, or while, it is read.
    static func refuse(_ output: String, option: String, overwriting inputs: [String], doing action: String) throws {
        if let input = FileIdentity.firstPath(in: inputs, sameFileAs: output) {
            throw ValidationError("\(option) \(output) is the input file \(input) (the same file on disk): "
                                  + "\(action) would destroy it; write to another file")
        }
        // `convert - -o F < F`: standard input is a file, and the output names it.
        if inputs.contains("-"), let standardInput = FileIdentity(regularFileOpenAs: .standardInput),
           FileIdentity(path: output) == standardInput {
            throw ValidationError("\(option) \(output) is the file on standard input (the same file on disk): "
                                  + "\(action) would destroy it; write to another file")
        }
    }

    /// Writes `text` to `path` whole or not at all; a failure is exit status 74 naming `what`.
    static func write(_ text: String, to path: String, what: String) throws {
        do {
            try StagedOutputFile.write(Array(text.utf8), to: path)
        } catch let error as RecordingError {
            throw CLIError(status: .ioError, message: "\(path): cannot write the \(what) (\(error.found))")
        }
    }

    /// Writes the file at `path` whole or not at all from the pieces `write` hands its writer (a
    /// page too large to make whole in memory first); a failure is exit status 74 naming `what`.
    static func write(to path: String, what: String, _ write: (BufferedFileWriter) throws -> Void) throws {
        do {
            try StagedOutputFile.write(to: path) { staged in
                let out = try BufferedFileWriter(path: staged)
                try write(out)
                try out.close()
            }
        } catch let error as RecordingError {
            throw CLIError(status: .ioError, message: "\(path): cannot write the \(what) (\(error.found))")
        }
    }
}
