import Testing

@testable import GTIOConsole

#if canImport(Glibc)
import CMalloc
import Glibc

struct ResidentMemoryTests {
    /// Whether glibc serves the block at `pointer` from a mapping of its own: the IS_MMAPPED bit
    /// of the size word just before it, a layout glibc has kept since its first malloc.
    private func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        pointer.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self) & 2 != 0
    }

    /// Takes blocks of `bytes` until glibc serves one from a mapping, and returns that one.
    ///
    /// glibc maps a block of the threshold's size or more only when no free chunk of the heap
    /// fits it, and what the other tests of this process left free is unknown. So the blocks
    /// served from the heap are kept in `kept` until the heap has none left; the test fails once
    /// more has been taken than the heap ever had free, which is what a threshold above `bytes`
    /// looks like: the heap grows instead.
    private func takeUntilMapped(
        _ bytes: Int, keeping kept: inout [UnsafeMutableRawPointer], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> UnsafeMutableRawPointer? {
        var taken = 0
        var mostFree = 0
        while true {
            let block = try #require(malloc(bytes), sourceLocation: sourceLocation)
            if isMapped(block) { return block }
            kept.append(block)
            taken += bytes
            mostFree = max(mostFree, mallinfo2().fordblks)
            if taken > mostFree + (64 << 20) {
                Issue.record("\(taken >> 20) MB of \(bytes)-byte blocks came from the heap, which had at most \(mostFree >> 20) MB free", sourceLocation: sourceLocation)
                return nil
            }
        }
    }

    @Test
    func glibcTakesTheThresholdAndKeepsItAfterALargeBlockIsFreed() throws {
        #expect(ResidentMemory.returnLargeBlocks())
        var kept: [UnsafeMutableRawPointer] = []
        defer { kept.forEach { free($0) } }
        // By default, freeing a mapping of 24 MB raises glibc's threshold to 24 MB, and every
        // block below that would then come from the heap.
        let large = try #require(try takeUntilMapped(24 << 20, keeping: &kept))
        free(large)
        // With the threshold fixed, a block just above it still gets a mapping once the heap
        // has no room left for it (the blocks are not touched, so cost no memory).
        if let block = try takeUntilMapped(Int(ResidentMemory.largeBlock) + (64 << 10), keeping: &kept) {
            free(block)
        }
    }
}
#endif
