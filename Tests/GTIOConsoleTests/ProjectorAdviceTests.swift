import Testing

@testable import GTIOConsole

/// What a one-shot writer says when reading the saved fold state back took long.
struct ProjectorAdviceTests {
    @Test func aQuickReadOrNoneIsNotWorthAWord() {
        #expect(ProjectorAdvice.line(seconds: 0.99, bytes: 14_000_000, threshold: 1) == nil)
        // No state read at all (a store's first writer) says nothing, whatever the threshold.
        #expect(ProjectorAdvice.line(seconds: 0, bytes: nil, threshold: 0) == nil)
    }

    @Test func aSlowReadSaysWhatItCostAndWhatRemovesTheCost() {
        #expect(ProjectorAdvice.line(seconds: 2.314, bytes: 270_849_000, threshold: 1) == """
            gtio: reading the read models' saved state back (270.8 MB) took 2.31 s, as it does for every writer while \
            no projector runs; gtio project --follow beside the writers keeps it in memory, and they then only append \
            (docs/STORE.md, "Writers on a large log")
            """)
        #expect(ProjectorAdvice.line(seconds: 1, bytes: nil, threshold: 1)?.hasPrefix("gtio: reading the read models' saved state back took 1.00 s,") == true)
        #expect(ProjectorAdvice.line(seconds: 0.002, bytes: 15_399, threshold: 0)?.hasPrefix("gtio: reading the read models' saved state back (15 KB) took 0.00 s,") == true)
    }
}
