import GestureLab
import Synchronization

/// Arbitrary bytes as a corpus manifest (`check`, `label`, `tune` read it) and as a settings file
/// (`--config`): an error or a value, never a crash, and never more memory than a bound per input
/// byte. The peak of the bytes allocated while each reader runs (`PeakHeap`) must stay under
/// `PeakHeap.allowance(forInputBytes:perByte:)`: a reader that builds a tree of the whole text, or
/// holds kilobytes per entry, is caught on an input of a few hundred entries (the seed
/// many-small.json has 700; the campaign of issue #42 found 6.4 kB per entry of 57 bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestMemory(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PeakHeap.installOnce
    PeakHeap.warmUp
    let path = FuzzInputFile.write(data, size)
    let manifestPeak = PeakHeap.measure { _ = try? CorpusFiles.loadManifest(at: CorpusLocation(manifestPath: path)) }
    precondition(manifestPeak <= PeakHeap.allowance(forInputBytes: size, perByte: PeakHeap.manifestBytesPerByte),
                 "reading a manifest of \(size) bytes took \(manifestPeak) bytes at its peak")
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let settingsPeak = PeakHeap.measure { _ = try? LabSettings(fileBytes: bytes) }
    precondition(settingsPeak <= PeakHeap.allowance(forInputBytes: size, perByte: PeakHeap.settingsBytesPerByte),
                 "reading a settings file of \(size) bytes took \(settingsPeak) bytes at its peak")
    return 0
}

/// The peak of the heap's allocated bytes, counted by ASan's allocator hooks.
///
/// Under ASan, `mallinfo2` describes glibc's arenas, which ASan's allocator replaces (its own
/// `mallinfo` answers zeros); `__sanitizer_get_current_allocated_bytes` is only the present total,
/// and `__sanitizer_get_heap_size` the memory mapped for the heap, which only grows: none sees one
/// input's peak. ASan calls
/// hooks installed with `__sanitizer_install_malloc_and_free_hooks` on every allocation (with its
/// size) and every free (before the chunk is released, so `__sanitizer_get_allocated_size` still
/// answers its size): the running total and its peak follow every byte the readers allocate,
/// `realloc` included (ASan makes it an allocation and a free).
enum PeakHeap {
    /// Bytes allocated and not yet freed, by every thread (the readers run on this one).
    static let current = Atomic<Int>(0)
    static let peak = Atomic<Int>(0)

    /// What a reader may allocate at its peak for an input of `count` bytes: a fixed 256 KiB (the
    /// file's 64 KiB read buffer, and what Swift's runtime and Foundation's decoder make the first
    /// time they meet a type: `warmUp` meets them before anything is measured) and so many bytes an
    /// input byte.
    static func allowance(forInputBytes count: Int, perByte: Int) -> Int { 256 << 10 + perByte * count }

    /// A manifest's worst, by design: an entry of 26 bytes kept as a `CorpusEntry` (48 bytes),
    /// the text's bytes (one copy, and the read's growing array), an entry of many keys
    /// (its members and their dictionary, about 15). The reader before issue #42 took about 70.
    static let manifestBytesPerByte = 24
    /// A settings file (at most 64 KiB) is parsed whole to a `JSONValue`: a long list of numbers
    /// takes 24 bytes an element of 2 bytes, 36 while its array grows.
    static let settingsBytesPerByte = 48

    static let installOnce: Void = {
        // Made before the hooks run: a global's first use inside a malloc hook would run its
        // initializer there.
        _ = current.load(ordering: .relaxed) + peak.load(ordering: .relaxed)
        let installed = __sanitizer_install_malloc_and_free_hooks(
            { _, size in
                let now = PeakHeap.current.add(size, ordering: .relaxed).newValue
                var seen = PeakHeap.peak.load(ordering: .relaxed)
                while now > seen {
                    let (exchanged, original) = PeakHeap.peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                    if exchanged { break }
                    seen = original
                }
            },
            { pointer in
                guard let pointer else { return }
                PeakHeap.current.subtract(__sanitizer_get_allocated_size(pointer), ordering: .relaxed)
            })
        precondition(installed != 0, "ASan has no room for another pair of malloc hooks")
    }()

    /// Both readers run once on inputs with every key, before anything is measured: what the
    /// runtime makes once (type metadata, Foundation's decoder's caches) is then not counted
    /// against the first input.
    static let warmUp: Void = {
        let manifest = #"{"description": "d", "generatorVersion": 1, "entries": [{"file": "a", "events": "b", "notes": "n", "#
            + #""expect": [{"kind": "pinch", "fingers": 2, "direction": "in", "outcome": "finish"}], "transition": "pinch-dismiss", "#
            + #""deviceConfiguration": {"scrollMethod": "edge"}, "device": "touchpad", "seed": 1, "recipe": {}}]}"#
        let path = FuzzInputFile.write(manifest, manifest.utf8.count)
        _ = try? CorpusFiles.loadManifest(at: CorpusLocation(manifestPath: path))
        _ = try? LabSettings(fileBytes: Array(#"{"completion": {"spring": {"mass": 1}}, "policy": {"kind": "x"}}"#.utf8))
    }()

    /// How far the allocated bytes rose above where they were while `body` ran.
    static func measure(_ body: () -> Void) -> Int {
        let start = current.load(ordering: .relaxed)
        peak.store(start, ordering: .relaxed)
        body()
        return peak.load(ordering: .relaxed) - start
    }
}

// ASan's allocator interface (compiler-rt's sanitizer/allocator_interface.h), linked in by
// -sanitize=address. The arguments are pointers and integers, passed alike by Swift's and C's
// calling conventions.
@_silgen_name("__sanitizer_install_malloc_and_free_hooks")
func __sanitizer_install_malloc_and_free_hooks(
    _ malloc: @convention(c) (UnsafeRawPointer?, Int) -> Void, _ free: @convention(c) (UnsafeRawPointer?) -> Void) -> CInt

@_silgen_name("__sanitizer_get_allocated_size")
func __sanitizer_get_allocated_size(_ pointer: UnsafeRawPointer) -> Int
