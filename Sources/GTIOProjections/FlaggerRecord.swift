/// One flagger's record (Discourse weighs flags by it): the items they flagged, and those a
/// moderator's decision removed or dismissed while their flag on it was open. Sets, so that an
/// item flagged again, or dismissed twice, counts once in each.
public struct FlaggerRecord: Sendable, Equatable {
    public var flagged = IDSet()
    public var upheld = IDSet()
    public var dismissed = IDSet()

    public init() {}

    /// upheld ÷ (upheld + dismissed); nil when no decision touched their flags.
    public var accuracy: Double? {
        let decided = upheld.count + dismissed.count
        return decided == 0 ? nil : Double(upheld.count) / Double(decided)
    }
}
