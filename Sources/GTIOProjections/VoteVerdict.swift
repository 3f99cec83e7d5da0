import Foundation

/// A post's vote verdict (3.2, 8.3): counts, share, Wilson lower bound and label.
public struct VoteVerdict: Sendable, Equatable {
    public static let z = 1.959964

    public var post: String
    public var wearIt: Int
    public var changeIt: Int

    public init(post: String, wearIt: Int, changeIt: Int) {
        self.post = post
        self.wearIt = wearIt
        self.changeIt = changeIt
    }

    public var votes: Int { wearIt + changeIt }

    /// W / n.
    public var share: Double { votes == 0 ? 0 : Double(wearIt) / Double(votes) }

    /// The lower bound of the 95 % Wilson score interval for W / n, clamped at 0.
    public var wilson: Double { Self.wilsonLowerBound(successes: wearIt, trials: votes) }

    public static func wilsonLowerBound(successes: Int, trials: Int) -> Double {
        guard trials > 0 else { return 0 }
        let n = Double(trials), p = Double(successes) / n, z2 = z * z
        let centre = p + z2 / (2 * n)
        let margin = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return max(0, (centre - margin) / (1 + z2 / n))
    }

    /// `pending` under 5 votes, else `wear it`, `change it` or `split`.
    public var label: String {
        if votes < 5 { return "pending" }
        if wearIt > changeIt { return "wear it" }
        if changeIt > wearIt { return "change it" }
        return "split"
    }
}
