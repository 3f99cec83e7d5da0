/// The sum of some numbers and their mean, which stays finite where only the sum passes the
/// largest double.
///
/// A price or any numeric property may be as large as a double allows, so two of them can sum to
/// infinity while their mean (and a median of two) is an ordinary number. Each number is also
/// added scaled down by 2^64, which is exact for all but values below 2^-958: where the plain sum
/// is no longer finite but the scaled one is, the mean comes from the scaled sum. Everywhere else
/// the plain sum decides, so the mean is `sum / count` to the bit.
public struct MeanSum: Sendable, Equatable {
    /// The plain sum: infinite once it passes the largest double, as the contract's sums are.
    public private(set) var sum = 0.0
    public private(set) var count = 0
    private var scaledSum = 0.0

    private static let scale = 0x1p64

    public init() {}

    public init(_ numbers: some Sequence<Double>) {
        for number in numbers { add(number) }
    }

    public mutating func add(_ number: Double) {
        sum += number
        scaledSum += number / Self.scale
        count += 1
    }

    /// Nil for no numbers; infinite only when a number is.
    public var mean: Double? {
        guard count > 0 else { return nil }
        if sum.isFinite || !scaledSum.isFinite { return sum / Double(count) }
        return scaledSum / Double(count) * Self.scale
    }
}
