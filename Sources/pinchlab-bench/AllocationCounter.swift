import Glibc

/// Heap allocations counted by `Benchmarks/alloc_counter.c` when the benchmark runs with it in
/// `LD_PRELOAD`: the shim counts malloc/calloc/realloc/posix_memalign/aligned_alloc/memalign
/// while enabled. Found with dlsym, so without the shim the benchmark still runs and says "n/a".
struct AllocationCounter {
    private typealias SetEnabled = @convention(c) (Int32) -> Void
    private typealias Read = @convention(c) () -> UInt64

    private let setEnabled: SetEnabled
    private let read: Read

    init?() {
        let handle = dlopen(nil, RTLD_NOW)
        guard let enable = dlsym(handle, "pinchlab_alloc_counting"),
              let count = dlsym(handle, "pinchlab_alloc_count") else { return nil }
        setEnabled = unsafeBitCast(enable, to: SetEnabled.self)
        read = unsafeBitCast(count, to: Read.self)
    }

    /// Allocations counted so far.
    var total: UInt64 { read() }

    /// Runs `body` with counting on (on any thread).
    func counting(_ body: () throws -> Void) rethrows {
        setEnabled(1)
        defer { setEnabled(0) }
        try body()
    }
}
