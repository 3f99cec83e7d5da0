import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOStore

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

    func run() throws {
        let store = try storeOptions.openForReading()
        var filter = EventFilter()
        filter.types = types.compactMap(EventType.named)
        filter.user = user
        filter.post = post
        filter.since = try since.map { try TimeArgument.parse($0, option: "--since", endOfDay: false) }
        filter.until = try until.map { try TimeArgument.parse($0, option: "--until", endOfDay: true) }
        filter.afterSeq = afterSeq
        if let tail {
            filter.limit = tail
            filter.newestFirst = true
        } else {
            filter.limit = limit
        }
        var events = try store.events(matching: filter)
        let wide = full || format != .table
        var printedHeader = false
        func emit(_ batch: [StoredEvent]) {
            guard !batch.isEmpty || !printedHeader else { return }
            var text = EventRows.table(batch, full: wide, original: original).rendered(as: format, width: Terminal.width)
            // While following, later pages print rows only.
            // (CSV ends lines with CRLF, one Character: look for any line end, not "\n".)
            if printedHeader && format == .csv, let end = text.firstIndex(where: \.isNewline) {
                text = String(text[text.index(after: end)...])
            }
            Terminal.write(text)
            printedHeader = true
        }
        emit(events)
        if !follow && tail == nil && limit > 0 && events.count == limit && format == .table {
            Terminal.writeError("(first \(limit) shown; --limit 0 shows all, --tail N the last N)\n")
        }
        guard follow else { return }
        var last = try events.last?.seq ?? store.lastSeq()
        // In the REPL, Ctrl-C ends the follow and keeps the session.
        while !Interruption.isRequested {
            Thread.sleep(forTimeInterval: 0.5)
            filter.afterSeq = last
            filter.limit = nil
            filter.newestFirst = false
            events = try store.events(matching: filter)
            if let newest = events.last?.seq {
                emit(events)
                last = newest
            }
        }
    }
}
