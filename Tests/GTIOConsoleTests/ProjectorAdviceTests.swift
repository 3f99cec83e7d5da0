import Testing

@testable import GTIOConsole

/// What a one-shot writer says when reading the saved fold state back took long.
struct ProjectorAdviceTests {
    @Test func aQuickReadIsNotWorthAWord() {
        #expect(ProjectorAdvice.line(seconds: 0.99, bytes: 14_000_000) == nil)
        #expect(ProjectorAdvice.line(seconds: 0, bytes: nil) == nil)
    }

    @Test func aSlowReadSaysWhatItCostAndWhatRemovesTheCost() {
        #expect(ProjectorAdvice.line(seconds: 2.314, bytes: 270_800_000) == """
            gtio: reading the read models' saved state back (271 MB) took 2.31 s, as it does for every writer while \
            no projector runs; gtio project --follow beside the writers keeps it in memory, and they then only append \
            (docs/STORE.md, "Writers on a large log")
            """)
        #expect(ProjectorAdvice.line(seconds: 1, bytes: nil)?.hasPrefix("gtio: reading the read models' saved state back took 1.00 s,") == true)
    }
}
