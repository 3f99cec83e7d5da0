import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOStore
import GTIOTables

/// `gtio events`: lists or tails the log, filtered.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List or tail events, filtered by type, user, post and time.",
        discussion: """
            Examples:
              gtio events --type post.voted --post p2545f4914f6d
              gtio events --user u5e1ea978 --since 2012-04-24 --format csv
              gtio events --tail 20 --follow
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customLong("type"), help: ArgumentHelp("Only this type (repeatable).", valueName: "type"))
    var types: [String] = []
    @Option(help: "Only events by this user.") var user: String?
    @Option(help: "Only events on this post (and reviews added to it).") var post: String?
    @Option(help: ArgumentHelp("Only events at or after this time (YYYY-MM-DD or RFC 3339).", valueName: "time"))
    var since: String?
    @Option(help: ArgumentHelp("Only events at or before this time.", valueName: "time")) var until: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Only events after this seq.", valueName: "seq")) var afterSeq: Int64?
    @Option(parsing: .unconditional, help: "At most this many, oldest first (0: all).", transform: Limit.parse) var limit = 100
    @Option(parsing: .unconditional, help: ArgumentHelp("The last N matching events instead of the first.", valueName: "N")) var tail: Int?
    @Flag(help: "Keep printing new events as they are appended (stop with Ctrl-C).") var follow = false
    @Option(help: "table, csv or json.") var format: OutputFormat = .table
    @Flag(help: "Every typed column, not the short view (csv and json always have them).") var full = false
    @Flag(help: "Add the original JSON line.") var original = false

    func validate() throws {
        for name in types where EventType.named(name) == nil {
            throw ValidationError("--type: unknown type \"\(name)\" (e.g. post.hearted; gtio catalog lists them)")
        }
        if limit < 0 { throw ValidationError("--limit must be 0 (all) or more, got \(limit)") }
        if let tail, tail < 1 { throw ValidationError("--tail must be 1 or more, got \(tail)") }
        // As insights refuse --from after --to: an empty answer would read as "no such events".
        if let since, let until, let first = try? TimeArgument.parse(since, option: "--since", endOfDay: false),
           let last = try? TimeArgument.parse(until, option: "--until", endOfDay: true), first > last {
            throw ValidationError("--since \(first) is after --until \(last): no event can match (swap them?)")
        }
    }

    /// Events read and written at a time: what a listing holds, however long the log.
    static let pageSize = 10_000

    func run() throws {
        let store = try storeOptions.openForReading()
        var filter = EventFilter()
        filter.types = types.compactMap(EventType.named)
        filter.user = user
        filter.post = post
        filter.since = try since.map { try TimeArgument.parse($0, option: "--since", endOfDay: false) }
        filter.until = try until.map { try TimeArgument.parse($0, option: "--until", endOfDay: true) }
        filter.afterSeq = afterSeq
        let wide = full || format != .table
        func table(_ events: [StoredEvent]) -> ResultTable { EventRows.table(events, full: wide, original: original) }
        var listing = TableStream(format: format, width: Terminal.width)
        var last: Int64?
        // The log as it stands: what is appended meanwhile is for --follow.
        let end = try store.lastSeq()
        filter.throughSeq = end
        if let narrowed = try store.narrowedToItsTimes(filter) {
            if let tail {
                var newest = narrowed
                newest.limit = tail
                newest.newestFirst = true
                let events = try store.events(matching: newest)
                if !events.isEmpty { listing.write(table(events)) }
            } else {
                last = try Self.forEachPage(of: narrowed, count: limit == 0 ? nil : limit, in: store) { listing.write(table($0)) }
            }
        }
        if tail != nil || last == nil { last = end }
        listing.finish(columns: table([]).columns)
        if !follow && tail == nil && limit > 0 && listing.rows == limit && format == .table {
            Terminal.writeError("(first \(limit) shown; --limit 0 shows all, --tail N the last N)\n")
        }
        guard follow else { return }
        filter.afterSeq = last
        filter.throughSeq = nil
        filter.newestFirst = false
        // In the REPL, Ctrl-C ends the follow and keeps the session.
        while !Interruption.isRequested && !Terminal.outputClosed {
            Thread.sleep(forTimeInterval: 0.5)
            let newest = try Self.forEachPage(of: filter, count: nil, in: store) { events in
                // Each page as a table of its own; CSV's header only once.
                var text = table(events).rendered(as: format, width: Terminal.width)
                // (CSV ends lines with CRLF, one Character: look for any line end, not "\n".)
                if format == .csv, let end = text.firstIndex(where: \.isNewline) {
                    text = String(text[text.index(after: end)...])
                }
                Terminal.write(text)
            }
            if let newest { filter.afterSeq = newest }
        }
    }

    /// Hands `body` the events `filter` matches, oldest first, `pageSize` at a time, at most
    /// `count` of them (nil: all) and no more once standard output has closed; the seq of the
    /// last one, nil for none.
    static func forEachPage(
        of filter: EventFilter, count: Int?, in store: any EventStore, _ body: ([StoredEvent]) -> Void
    ) throws -> Int64? {
        var filter = filter
        var left = count ?? .max
        var last: Int64?
        while left > 0 && !Terminal.outputClosed {
            filter.limit = min(left, pageSize)
            let page = try store.events(matching: filter)
            guard let newest = page.last?.seq else { break }
            body(page)
            last = newest
            left -= page.count
            guard page.count == filter.limit else { break }
            filter.afterSeq = newest
        }
        return last
    }
}
