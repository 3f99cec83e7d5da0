import ArgumentParser
import GTIOCatalog
import GTIOProjections

/// `flags`: the moderation queue.
struct FlagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "The moderation queue: open items, most distinct flaggers first (3.1, 3.4).",
        discussion: "version is the seq of the item's latest open flag: what a decision must expect.")
    @Option(help: "How many (0: all).") var limit = 0
    @OptionGroup var query: QueryOptions

    func run() throws {
        var queue = try query.readModels().moderationQueue()
        if let limit = try checkedLimit(limit) { queue = Array(queue.prefix(limit)) }
        try query.emit(ResultTable(
            columns: ["item", "flaggers", "first_flagged", "hidden", "last_flagged", "version"],
            rows: queue.map {
                [.text($0.item), .integer(Int64($0.flaggers)), .timestamp(Timestamp(milliseconds: $0.firstFlagged)),
                 .bool($0.hidden), .timestamp(Timestamp(milliseconds: $0.lastFlagged)), .integer($0.version)]
            }))
    }
}
