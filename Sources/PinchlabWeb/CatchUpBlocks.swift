/// The entries a tab that connects late is sent first, as JSON text in blocks of about
/// `blockBytes`: a finished block never changes, so every tab's catch-up shares the blocks (a copy
/// of the block list, not of the text), and the oldest blocks are dropped once the kept text passes
/// `maximumBytes`, so a long session's catch-up stays bounded.
struct CatchUpBlocks {
    static let blockBytes = 64 << 10

    let maximumBytes: Int
    /// Finished blocks, oldest first: entries' JSON joined by commas.
    private(set) var sealed: [String] = []
    /// The block being filled.
    private(set) var open = ""
    /// The text kept, in bytes (sealed and open).
    private(set) var keptBytes = 0
    /// Entries dropped from the front since the session began.
    private(set) var droppedEntries = 0
    private var entriesPerSealedBlock: [Int] = []
    private var entriesInOpen = 0

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    mutating func append(_ entryJSON: String) {
        if !open.isEmpty { open += ","; keptBytes += 1 }
        open += entryJSON
        keptBytes += entryJSON.utf8.count
        entriesInOpen += 1
        if open.utf8.count >= Self.blockBytes {
            sealed.append(open)
            entriesPerSealedBlock.append(entriesInOpen)
            open = ""
            open.reserveCapacity(Self.blockBytes + 4096)
            entriesInOpen = 0
        }
        while keptBytes > maximumBytes, !sealed.isEmpty {
            keptBytes -= sealed.removeFirst().utf8.count
            droppedEntries += entriesPerSealedBlock.removeFirst()
        }
    }

    /// The blocks to send, in order, none empty: the sealed ones (shared) and a copy of the open one.
    var snapshot: [String] { open.isEmpty ? sealed : sealed + [open] }
}
