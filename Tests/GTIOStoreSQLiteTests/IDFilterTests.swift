import Testing
@testable import GTIOStoreSQLite

/// The writer's filter of the log's ids never says "not seen" for an id it holds, and says
/// "maybe" for few of the others: about one in a hundred per layer, a layer added each time
/// the ids outgrow the ones before.
@Suite struct IDFilterTests {
    @Test func everyIDInsertedIsFoundAndFewOthersAre() {
        var generator = SystemRandomNumberGenerator()
        let held = (0..<31_000).map { _ in generator.next() as UInt64 }
        let others = (0..<100_000).map { _ in generator.next() as UInt64 }

        var full = IDFilter(capacity: 31_000)
        for hash in held { full.insert(hash) }
        #expect(full.count == 31_000 && full.bytes == 38_752)
        #expect(held.allSatisfy { full.mayContain($0) })
        let maybeInOne = others.filter { full.mayContain($0) }.count
        #expect(maybeInOne < 1_500, "\(maybeInOne) of 100,000 ids never inserted")

        // The same ids in five full layers (1,000, 2,000, 4,000, 8,000 and 16,000 ids): each
        // layer's false "maybe" adds to the whole.
        var grown = IDFilter(capacity: 1_000)
        for hash in held { grown.insert(hash) }
        #expect(grown.count == 31_000)
        // 40, 79, 157, 313 and 625 blocks of 32 bytes: ten bits per id, rounded up to a block.
        #expect(grown.bytes == 38_848)
        #expect(held.allSatisfy { grown.mayContain($0) })
        let maybeInFive = others.filter { grown.mayContain($0) }.count
        #expect(maybeInFive < 6_500, "\(maybeInFive) of 100,000 ids never inserted")
    }
}
