import GTIOSimulation
import Testing
@testable import GTIOProjections

@Suite struct PairTableTests {
    typealias KeyPair = CommunityState.KeyPair

    /// `table` saved and read back.
    static func roundTrip(_ table: PairTable<Int64>) throws -> PairTable<Int64> {
        var writer = StateWriter(chunkSize: 1 << 12)
        table.write(to: &writer) { $0.write($1) }
        return try writer.chunks.flatMap { $0 }.withUnsafeBytes { bytes in
            var reader = StateReader(bytes)
            return try PairTable(from: &reader) { try $0.readInt64() }
        }
    }

    /// Pairs set before and after a save answer as a dictionary of the same pairs does: the ones
    /// read back (found by search), the ones added since (in the table) and values changed on
    /// either side, through two saves, in ascending order of pair.
    @Test func answersAsADictionaryThroughSavesAndReadsBack() throws {
        var generator = SeededGenerator(seed: 7)
        var table = PairTable<Int64>(), expected: [KeyPair: Int64] = [:]
        for round in 0..<3 {
            for _ in 0..<2_000 {
                let pair = KeyPair(Int(generator.next() % 300) + 1, Int(generator.next() % 300) + 1)
                let value = Int64(generator.next() % 1_000) - 500
                table.set(value, for: pair)
                expected[pair] = value
            }
            #expect(table.count == expected.count, "round \(round)")
            for first in 1...300 {
                for second in stride(from: 1, through: 300, by: 7) {
                    let pair = KeyPair(first, second)
                    #expect(table[pair] == expected[pair], "round \(round): \(first), \(second)")
                }
            }
            var inOrder: [(pair: Int, value: Int64)] = []
            table.forEachInOrder { inOrder.append(($0.packed, $1)) }
            #expect(inOrder.map(\.pair) == expected.keys.map(\.packed).sorted())
            #expect(inOrder.map(\.value) == expected.sorted { $0.key.packed < $1.key.packed }.map(\.value))
            table = try Self.roundTrip(table)
        }
        #expect(table[KeyPair(301, 1)] == nil)
        #expect(table[KeyPair(0, 0)] == nil)
    }

    /// Saved pairs that do not ascend, repeat or run past the largest integer are refused, not
    /// searched wrongly.
    @Test func pairsSavedOutOfOrderAreRefused() {
        func read(_ distances: [Int]) throws -> PairTable<Int64> {
            var writer = StateWriter(chunkSize: 1 << 10)
            writer.write(distances.count)
            for distance in distances {
                writer.write(distance)
                writer.write(Int64(1))
            }
            return try writer.chunks.flatMap { $0 }.withUnsafeBytes { bytes in
                var reader = StateReader(bytes)
                return try PairTable(from: &reader) { try $0.readInt64() }
            }
        }
        #expect(throws: Never.self) { _ = try read([5, 1, 9]) }
        #expect(throws: FoldSnapshotError.malformed("pairs saved out of order")) { _ = try read([5, 0]) }
        #expect(throws: FoldSnapshotError.malformed("pairs saved out of order")) { _ = try read([5, -1]) }
        #expect(throws: FoldSnapshotError.malformed("pairs saved out of order")) { _ = try read([-3]) }
        #expect(throws: FoldSnapshotError.malformed("pairs saved out of order")) { _ = try read([Int.max, 1]) }
    }
}
