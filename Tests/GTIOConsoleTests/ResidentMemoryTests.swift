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
        // By default, freeing this mapping raises glibc's threshold to 24 MB, and a block of
        // 20 MB would then come from the heap. With the threshold fixed it is mapped, unless the
        // heap already had 20 MB free at its top, which glibc only keeps after a mapping of
        // 10 MB or more was freed under its own rule: no other test makes one.
        let large = try #require(malloc(24 << 20))
        #expect(isMapped(large))
        free(large)
        let next = try #require(malloc(20 << 20))
        defer { free(next) }
        #expect(isMapped(next))
    }
}
#endif
