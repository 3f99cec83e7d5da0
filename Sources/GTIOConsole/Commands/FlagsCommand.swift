import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOInsights
import GTIOProjections
import GTIOTables

/// `flags`: the moderation queue.
struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "The moderation queue: open items, most distinct flaggers first (3.1, 3.4).",
        discussion: """
            reasons are the distinct reasons of the item's open flags, joined with ;. version is the \
            seq of the item's latest open flag: what a decision must expect. Filters combine with and.
            """)
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 0
    @Flag(help: "Only posts.") var posts = false
    @Flag(help: "Only reviews.") var reviews = false
    @Flag(help: "Only hidden items (3 or more flaggers).") var hidden = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Only items first flagged longer ago than this (e.g. 90m, 12h, 3d).", valueName: "duration"))
    var olderThan: String?
    @Option(help: ArgumentHelp("Only items with this reason among their open flags' (the whole reason).", valueName: "reason"))
    var reason: String?
    @Option(help: ArgumentHelp("Only items this user wrote (a post's author, a review's writer).", valueName: "user"))
    var author: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Only items with at least this many distinct open flaggers.", valueName: "N")) var minFlaggers: Int?
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if posts && reviews { throw ValidationError("give --posts or --reviews, not both") }
        if let minFlaggers, minFlaggers < 0 { throw ValidationError("--min-flaggers must be 0 or more, got \(minFlaggers)") }
        if let olderThan, Self.milliseconds(olderThan) == nil {
            throw ValidationError("--older-than: \"\(olderThan)\" is not a duration (expected a number and s, m, h, d or w, e.g. 12h)")
        }
    }

    static func milliseconds(_ duration: String) -> Int64? { try? InsightDuration.milliseconds(duration) }

    func run() throws {
        try query.withStoredModels(reading: .queue) { models in
            let filter = QueueFilter(
                reason: reason, author: author, minimumFlaggers: minFlaggers,
                kind: posts ? .post : reviews ? .review : nil, hiddenOnly: hidden,
                firstFlaggedBy: olderThan.flatMap(Self.milliseconds).map { models.now - $0 })
            let queue = try models.moderationQueue(filter, limit: try checkedLimit(limit))
            try query.emit(AnswerTable.flags(queue))
        }
    }
}
