/// A suite whose tests write their recordings into its own temporary directory (`Testing` makes
/// the suite afresh for each test, so each test has a directory of its own).
protocol WritesFilesInItsDirectory {
    /// A fresh directory from `makeTemporaryDirectory()`.
    var directory: String { get }
}

extension WritesFilesInItsDirectory {
    /// Writes `text` to the file `name` in the directory; its path.
    func file(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        writeFile(path, text)
        return path
    }
}
