/// Which of a growing run of indices (gestures, attempts) a bounded picture or page keeps: 1 in
/// `stride`, those it divides. When keeping the newest would make more than `bound`, the stride
/// doubles and the caller drops the ones it no longer divides (`thin`), so the kept ones stay
/// between half and all of the bound however many come. Indices below 0 (no gesture, no attempt)
/// are always kept.
struct MarkedIndices {
    let bound: Int
    private(set) var stride = 1
    private var highest = -1

    init(bound: Int) { self.bound = bound }

    /// Whether `index` is kept; `thin` is given each new stride, to drop what it leaves out.
    mutating func keeps(_ index: Int, thin: (Int) -> Void) -> Bool {
        guard index >= 0 else { return true }
        guard index % stride == 0 else { return false }
        highest = max(highest, index)
        while highest / stride + 1 > bound {
            stride *= 2
            thin(stride)
        }
        return index % stride == 0
    }
}
