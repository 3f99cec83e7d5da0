import GTIOCatalog
import GTIOStore

extension EventType {
    /// The columns of this type that the fold reads: the catalog's (`columns`) less the value,
    /// text and flag of the types whose rules never look at them (a track's name, an app open's
    /// first-launch flag, a sign-in's provider...), which a scan then need not read.
    ///
    /// A rule that starts reading one of these must be added here; the property tests would
    /// catch the omission, as catching up reads every column and must give what a rebuild gives.
    var foldColumns: EventColumns { Self.foldColumnsByCase[caseIndex] }

    private static let valueReaders: Set<EventType> = [
        .userSignedUp, .userFollowed, .postCreated, .postVoted, .moderationResolved, .productSuggested,
    ]
    private static let textReaders: Set<EventType> = [
        .userSignedUp, .userProfileUpdated, .postCreated, .postFlagged, .reviewAdded, .moderationResolved,
    ]
    private static let flagReaders: Set<EventType> = [.userPrivacyChanged, .postCreated]

    private static let foldColumnsByCase: [EventColumns] = allCases.map { type in
        var columns = type.columns
        if !valueReaders.contains(type) { columns.remove(.value) }
        if !textReaders.contains(type) { columns.remove(.text) }
        if !flagReaders.contains(type) { columns.remove(.flag) }
        // Only a post's brands and place count in a rule; a track's props and a profile's bio do not.
        if type != .postCreated { columns.remove(.properties) }
        return columns
    }
}
