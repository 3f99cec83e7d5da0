import Testing

@testable import GTIOConsole

#if canImport(Glibc)
import Glibc

struct ResidentMemoryTests {
    /// Whether glibc serves the block at `pointer` from a mapping of its own: the IS_MMAPPED bit
    /// of the size word just before it, a layout glibc has kept since its first malloc.
    private func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        pointer.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self) & 2 != 0
    }

    @Test
    func glibcTakesTheThresholdAndKeepsItAfterALargeBlockIsFreed() throws {
        #expect(ResidentMemory.returnLargeBlocks())
        // By default, freeing this mapping raises glibc's threshold to 24 MB, and every block
        // below that would then come from the heap.
        let large = try #require(malloc(24 << 20))
        #expect(isMapped(large))
        free(large)
        // With the threshold fixed, a block just above it comes from the heap only while the
        // heap has room for it: what earlier tests in this process left free, which is far
        // below the 320 MB asked here (the mappings are not touched, so cost no memory).
        var blocks: [UnsafeMutableRawPointer] = []
        defer { blocks.forEach { free($0) } }
        for _ in 0..<1_000 { blocks.append(try #require(malloc(Int(ResidentMemory.largeBlock) + (64 << 10)))) }
        #expect(isMapped(blocks[blocks.count - 1]))
    }
}
#endif
