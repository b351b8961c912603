import GestureKit
import GestureLab

/// How every command that runs a recording (`replay`, `plot`) ends once its output is written, so
/// they agree: bad data part-way exits with the reader's error and status 65 after the summary of
/// what was read; an interruption says where it stopped and exits 130; a recording cut inside a
/// frame or holding what a device would not send gets its warnings.
func reportEnding(_ result: ReplayRun.Result, of source: any RecordingSource) throws {
    switch result.stop {
    case .endOfInput:
        warnAboutRecording(source, .ignored)
    case .failed(let error):
        throw error
    case .interrupted:
        let s = result.summary
        printError("pinchlab: interrupted after \(s.events) events (\(format(s.duration, decimals: 3)) s "
                   + "of the recording); a gesture in flight was cancelled")
        throw ExitStatus.interrupted.exitCode
    }
}
