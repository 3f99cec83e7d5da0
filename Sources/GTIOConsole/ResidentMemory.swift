import CMalloc

/// How a process that holds a fold for hours keeps its resident memory near what it uses.
enum ResidentMemory {
    /// Has the C allocator serve every block of 256 KB or more from a mapping of its own, which
    /// goes back to the system when the block is freed.
    ///
    /// glibc starts with that threshold at 128 KB but raises it each time it frees such a
    /// mapping, up to 32 MB. A fold's large arrays are freed over and over (the rows of each
    /// catch-up, the encoded state, a table outgrowing its storage), so blocks of several MB
    /// soon come from the heap instead, where freed memory stays resident, is kept per thread,
    /// and is seldom reused whole. A fixed threshold costs a mapping per large block
    /// (docs/PERFORMANCE.md has the figures). Returns whether the C library took the setting:
    /// only glibc has it.
    @discardableResult
    static func returnLargeBlocks() -> Bool {
        gtio_malloc_set_mmap_threshold(largeBlock) == 1
    }

    /// The size from which a block gets a mapping of its own.
    static let largeBlock: Int32 = 256 << 10
}
