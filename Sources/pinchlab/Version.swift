/// pinchlab's version, written here only: `pinchlab --version` prints it (ArgumentParser's flag on
/// the root command); nothing else writes the number.
enum PinchlabVersion {
    static let number = "0.1.0"

    /// What `pinchlab --version` prints: `pinchlab 0.1.0 (git 1a2b3c4d5e6f)`, with `-dirty` after the
    /// commit when the work tree had changes, or `pinchlab 0.1.0` when it was not built from a git
    /// work tree (a tarball). `BuildCommit` is generated before every build (Plugins/GitCommitStamp).
    static var text: String { text(commit: BuildCommit.hash, dirty: BuildCommit.dirty) }

    static func text(commit: String?, dirty: Bool) -> String {
        guard let commit else { return "pinchlab \(number)" }
        return "pinchlab \(number) (git \(commit)\(dirty ? "-dirty" : ""))"
    }
}
