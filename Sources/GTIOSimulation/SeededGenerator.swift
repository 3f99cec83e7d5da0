/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so that
/// a demo log is the same file on every machine and every Swift version.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift; the tiny bias is irrelevant here).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int((UInt128(next()) * UInt128(bound)) >> 64)
    }

    /// A uniform double in `0..<1`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// An index in `0..<count` skewed towards 0 (a power law): a few get most of the picks.
    public mutating func skewed(_ count: Int, exponent: Double = 2.2) -> Int {
        min(count - 1, Int(Double(count) * pow(unit(), exponent)))
    }

    /// `count` lowercase hex digits.
    public mutating func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count)
        var bits = next()
        for index in 0..<count {
            if index % 16 == 15 { bits = next() }
            out.append(digits[Int(bits & 0xF)])
            bits >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
