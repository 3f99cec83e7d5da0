import GTIOCatalog
import GTIOSimulation
import Testing

@Suite struct DemoCommunityTests {
    func generate(_ count: Int, seed: UInt64 = 42) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: count).write { bytes += $0 }
        return bytes
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() throws {
        let first = try generate(5_000)
        #expect(first == (try generate(5_000)))
        #expect(first != (try generate(5_000, seed: 7)))
    }

    @Test func writesExactlyTheRequestedNumberOfValidLines() throws {
        let bytes = try generate(20_000)
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 20_000)
        var types: [EventType: Int] = [:]
        var ids = Set<String>()
        var offsets = 0
        var hearts: [String: Int] = [:]
        var flaggers: [String: Set<String>] = [:]
        var votingOff = 0
        for line in lines {
            let event = try Array(line).withUnsafeBufferPointer { try EventValidator.validate($0).get() }
            types[event.type, default: 0] += 1
            ids.insert(event.id)
            if !event.original.contains("Z\",") { offsets += 1 }
            switch event.type {
            case .postHearted: hearts[event.subject!, default: 0] += 1
            case .postFlagged: flaggers[event.subject!, default: []].insert(event.user!)
            case .postCreated where event.flag == false: votingOff += 1
            default: break
            }
        }
        // Every type of the catalog occurs; re-sent ids make duplicates; some times carry offsets.
        #expect(Set(types.keys) == Set(EventType.allCases))
        #expect(ids.count < lines.count)
        #expect(offsets > 100)
        #expect(votingOff > 10)
        // Hearts have a heavy tail: the most-hearted post gets many times the median.
        let counts = hearts.values.sorted()
        #expect(counts.last! >= 10 * counts[counts.count / 2])
        // Some posts reach three distinct flaggers, so the queue has hidden items.
        #expect(flaggers.values.filter { $0.count >= 3 }.count >= 3)
    }
}
