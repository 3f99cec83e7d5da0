import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOProjections

/// `resolve ITEM… remove|dismiss --as MODERATOR`: a moderator's decision, on the record.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Decide flagged items: remove or dismiss, appended as moderation.resolved events.",
        discussion: """
            Refused, with nothing appended, when an item has no open flags, does not exist, or \
            changed since you looked: pass the version that flags or item showed, with --expect N \
            for one item or ITEM@N for each of several. Several items are decided all or nothing.
            Example: resolve post:p2545f4914f6d remove --as mod-ana --expect 1234 --note "nudity"
            """)

    @Argument(help: ArgumentHelp("Items (post:<id> or review:<id>, optionally @version), then remove or dismiss.",
                                 valueName: "item… action"))
    var words: [String] = []
    @Option(name: .customLong("as"), help: ArgumentHelp("The moderator deciding.", valueName: "moderator"))
    var moderator: String
    @Option(help: "A note kept with the decision.") var note: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The version you saw (one item only).", valueName: "N")) var expect: Int64?
    @Option(help: ArgumentHelp("When the decision was made (default: now).", valueName: "time")) var at: String?
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard words.count >= 2, let action = words.last, action == "remove" || action == "dismiss" else {
            throw ValidationError("expected one or more items, then remove or dismiss (e.g. resolve post:p1 remove --as mod)")
        }
        if expect != nil && words.count > 2 {
            throw ValidationError("--expect is for one item; give several as ITEM@VERSION instead")
        }
        if moderator.isEmpty || moderator.unicodeScalars.count > 64 {
            throw ValidationError("--as: a moderator id of 1–64 characters")
        }
    }

    func requests() throws -> [ModerationDesk.Request] {
        try words.dropLast().map { word in
            guard let separator = word.lastIndex(of: "@") else { return .init(item: word, expectedVersion: expect) }
            guard let version = Int64(word[word.index(after: separator)...]) else {
                throw ValidationError("\(word): the version after @ must be a number (the version flags showed)")
            }
            return .init(item: String(word[..<separator]), expectedVersion: version)
        }
    }

    func run() throws {
        let store = try storeOptions.openExisting()
        let moment = try at.map { try TimeArgument.parse($0, option: "--at", endOfDay: false) }
            ?? Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let requests = try requests()
        let desk = ModerationDesk(store: store)
        let action = words.last!
        do {
            let seqs: [Int64]
            if let decided = try decideBesideProjector(desk, requests, action: action, at: moment) {
                seqs = decided
            } else {
                seqs = try desk.resolve(requests, action: action, moderator: moderator, note: note, at: moment) {
                    try ReadModelCache.shared.live(for: store).catchUp()
                }
            }
            for (request, seq) in zip(requests, seqs) {
                Terminal.line("\(request.item): \(action == "remove" ? "removed" : "dismissed") by \(moderator) (seq \(seq))")
            }
            // The decision is in the log; the queue others read is in the tables, which this
            // process brings up to date unless a projector leads.
            _ = try ReadModelCache.shared.bringUpToDate(store, quiet: false)
            ReadModelCache.shared.adviseOnStateRead(store)
        } catch let refusal as ModerationDesk.Refusal {
            if case .malformed(let word) = refusal, let named = StoredReadModels.item(namedByBareID: word, in: store) {
                // A bare post or review id, pointed at its item where the tables can say cheaply.
                throw ConsoleError.badArgument("resolve refused: \(refusal); it is a \(named.kind): give \(named)")
            }
            if refusal.isUsageError { throw ConsoleError.badArgument("resolve refused: \(refusal)") }
            throw ConsoleError.notFound("resolve refused: \(refusal)")
        }
    }

    /// The decision checked against the tables while a projector leads (`gtio project --follow`):
    /// it keeps them at the end of the log, so this process need not fold the log's state,
    /// which on a large store costs seconds and gigabytes. Nil when no projector leads, or it has
    /// not caught up within `QueryOptions.projectorWait`: then the decision is checked against a
    /// fold.
    private func decideBesideProjector(
        _ desk: ModerationDesk, _ requests: [ModerationDesk.Request], action: String, at moment: Timestamp
    ) throws -> [Int64]? {
        try QueryOptions.whileProjectorLeads(desk.store, waiting: "to apply the log before deciding") {
            guard try StoredReadModels.current(desk.store) != nil else { return nil }
            return try desk.resolveFromTables(requests, action: action, moderator: moderator, note: note, at: moment)
        }
    }
}
