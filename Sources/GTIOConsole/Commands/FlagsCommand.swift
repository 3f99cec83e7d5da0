import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

/// `flags`: the moderation queue.
struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "The moderation queue: open items, most distinct flaggers first (3.1, 3.4).",
        discussion: "version is the seq of the item's latest open flag: what a decision must expect.")
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 0
    @Flag(help: "Only posts.") var posts = false
    @Flag(help: "Only reviews.") var reviews = false
    @Flag(help: "Only hidden items (3 or more flaggers).") var hidden = false
    @Option(help: ArgumentHelp("Only items first flagged longer ago than this (e.g. 90m, 12h, 3d).", valueName: "duration"))
    var olderThan: String?
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if posts && reviews { throw ValidationError("give --posts or --reviews, not both") }
        if let olderThan, Self.milliseconds(olderThan) == nil {
            throw ValidationError("--older-than: \"\(olderThan)\" is not a duration (expected a number and m, h or d, e.g. 12h)")
        }
    }

    static func milliseconds(_ duration: String) -> Int64? {
        guard let unit = duration.last, let amount = Double(duration.dropLast()), amount >= 0 else { return nil }
        let scale: Double? = switch unit { case "m": 60_000; case "h": 3_600_000; case "d": 86_400_000; default: nil }
        return scale.map { Int64(amount * $0) }
    }

    func run() throws {
        let models = try query.storedModels()
        var queue = try models.moderationQueue().filter { entry in
            let kind = ItemRef(entry.item)?.kind
            return (!posts || kind == .post) && (!reviews || kind == .review)
                && (!hidden || entry.hidden)
                && (olderThan.flatMap(Self.milliseconds).map { entry.firstFlagged <= models.now - $0 } ?? true)
        }
        if let limit = try checkedLimit(limit) { queue = Array(queue.prefix(limit)) }
        let previews = try models.previews(of: queue.map(\.item))
        try query.emit(AnswerTable.flags(queue) { previews[$0] ?? (nil, "") })
    }
}
