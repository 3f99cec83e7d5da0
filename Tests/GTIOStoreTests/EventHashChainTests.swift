import GTIOStore
import Testing

/// The chain's links are a stored format: a log written by any build verifies with any other.
@Suite struct EventHashChainTests {
    /// Two links, each SHA-256 of the previous hash, seq, recorded time and batch (8 bytes
    /// big-endian each) and the event's digest; the expected hashes were computed apart from
    /// this code (Python's `hashlib`).
    @Test func aLinkHashesThePreviousHashThePositionAndTheDigest() {
        let first = [UInt8](repeating: 0xab, count: 32).withUnsafeBytes {
            EventHashChain.link(after: EventHashChain.genesis, seq: 1, recorded: 1_700_000_000_000, batch: 1, digest: $0)
        }
        #expect(hex(first) == "e1ee204e2878a1e94db0f91e76593f3a0812ec189f186bdaa0920daf5652dae7")
        let second = [UInt8](repeating: 0xcd, count: 32).withUnsafeBytes {
            EventHashChain.link(after: first, seq: 2, recorded: 1_700_000_000_001, batch: 1, digest: $0)
        }
        #expect(hex(second) == "4c72094eb53bb78ba82f3e2aee31c9c292395cdc866741b9a85ca1b079cbb473")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
