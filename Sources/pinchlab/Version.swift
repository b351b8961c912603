/// pinchlab's version, written here only: `pinchlab --version` prints it (ArgumentParser's flag on
/// the root command); nothing else writes the number.
enum PinchlabVersion {
    static let number = "0.1.0"
}
