import Foundation
import GestureKit
import ZIPFoundation

/// Writes a report's parts into a ZIP file on disk, each deflated from its file (or its bytes) in
/// 64 KiB blocks, so the archive of a recording of hours never has a part whole in memory.
enum ReportArchive {
    /// Every entry's folder in the archive.
    static let folder = "pinchlab-report/"
    /// A ZIP with no entries: only its end of central directory record.
    static let empty: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    /// Writes `parts` as the archive at `path` (a new or empty file: the staging file of the
    /// archive `destination` names in messages).
    static func write(_ parts: [(name: String, content: BugReport.Content)], to path: String, naming destination: String) throws {
        do {
            // ZIPFoundation's `.create` refuses a file that exists, and the staging file does: it is
            // made an empty archive, which `.update` adds to.
            try Data(empty).write(to: URL(fileURLWithPath: path))
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .update)
            for (name, content) in parts {
                switch content {
                case .bytes(let bytes):
                    try archive.addEntry(with: folder + name, type: .file, uncompressedSize: Int64(bytes.count),
                                         compressionMethod: .deflate) { position, size in
                        bytes.subdata(in: Int(position)..<(Int(position) + size))
                    }
                case .file(let file):
                    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file.path))
                    defer { try? handle.close() }
                    try archive.addEntry(with: folder + name, type: .file, uncompressedSize: try file.size(),
                                         compressionMethod: .deflate) { position, size in
                        try handle.seek(toOffset: UInt64(position))
                        return try handle.read(upToCount: size) ?? Data()
                    }
                }
            }
        } catch let error as RecordingError {
            throw error
        } catch {
            throw CLIError(status: .ioError, message: "\(destination): cannot write the report archive (\(error))")
        }
    }
}
