import GTIOProjections

/// Quick-add acceptance (EVENTS.md, Engagement): (viewer, user) pairs shown by `quickadd.shown`
/// and then followed with `via: quickadd`, over the pairs shown.
public struct QuickAddAcceptance: Sendable, Equatable {
    public var shown: Int
    public var accepted: Int

    public init(shown: Int, accepted: Int) {
        self.shown = shown
        self.accepted = accepted
    }

    /// accepted ÷ shown; nil when nothing was shown.
    public var rate: Double? { shown > 0 ? Double(accepted) / Double(shown) : nil }
}

extension StoredReadModels {
    /// Acceptance of the pairs first shown on one of `days` (nil: all), accepted at any time up to now.
    public func quickAddAcceptance(shownOn days: ClosedRange<Int64>? = nil) throws -> QuickAddAcceptance {
        let counts = try quickAddShownAndAccepted(shownOn: days)
        return QuickAddAcceptance(shown: counts.shown, accepted: counts.accepted)
    }
}
