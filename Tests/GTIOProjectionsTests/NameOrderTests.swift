@testable import GTIOProjections
import GTIOSimulation
import Testing

/// The order of people listed by display name: lowercased names by code points, then ids.
struct NameOrderTests {
    /// ASCII names are lowercased byte by byte: exactly what the full mapping gives them, the
    /// letters' neighbours ('@' before 'A', '[' after 'Z') left alone.
    @Test func asciiNamesAreLowercasedAsTheFullMappingDoes() {
        #expect(NameOrder.key("AbZ@[`{ 09~") == Array("abz@[`{ 09~".utf8))
        var random = SeededGenerator(seed: 57)
        for _ in 0..<2_000 {
            let name = String(decoding: (0..<random.below(13)).map { _ in UInt8(random.below(0x80)) }, as: UTF8.self)
            #expect(NameOrder.key(name) == Array(NameOrder.lowercased(name).utf8), "\(name.debugDescription)")
        }
        #expect(NameOrder.key("ΟΔΟΣ Zoë") == Array("οδος zoë".utf8))
    }

    /// Ties on the lowercased name go by id; a name that is a prefix of another comes first.
    @Test func equalNamesGoByIdAndPrefixesFirst() {
        let people = [("u3", "Ann"), ("u1", "ann"), ("u2", "Anna"), ("u0", "ANN"), ("u9", "Zoë"), ("u8", "zoe"), ("u7", "")]
        let sorted = NameOrder.sorted(people, name: \.1, id: \.0).map(\.0)
        #expect(sorted == ["u7", "u0", "u1", "u3", "u2", "u8", "u9"])
    }
}
