import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOProjections
import GTIOStore
import GTIOTables

/// Options every read-model query takes: output, and the moment it answers for.
struct QueryOptions: ParsableArguments {
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp(
        "Answer as if the log held only events up to this time (YYYY-MM-DD means the end of that UTC day).",
        valueName: "time"))
    var asOf: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Answer as if the log ended at this seq.", valueName: "N")) var atSeq: Int64?

    func validate() throws {
        if asOf != nil && atSeq != nil { throw ValidationError("give --as-of or --at-seq, not both") }
        if let atSeq, atSeq < 0 { throw ValidationError("--at-seq must be 0 or more, got \(atSeq)") }
    }

    var storeOptions: StoreOptions { output.storeOptions }
    var format: OutputFormat { output.format }
    var out: String? { output.out }
    /// Whether the answer is read by a person: a text table on standard output, where a card, a
    /// day down the page or an insight's readable form takes the place of the rows programs read.
    var forReader: Bool { format == .table && out == nil }

    var view: LogView {
        get throws {
            if let asOf { return .asOf(try TimeArgument.parse(asOf, option: "--as-of", endOfDay: true)) }
            if let atSeq { return .atSeq(atSeq) }
            return .latest
        }
    }

    /// The read models of the requested view; the latest view also brings lagging tables up to date.
    func readModels() throws -> ReadModels {
        let view = try self.view
        let store = try storeOptions.open()
        guard view == .latest else { return try ReadModelEngine(store: store).fold(view) }
        let live = try ReadModelCache.shared.live(for: store)
        do {
            return try live.catchUp()
        } catch let error as StoreError where Self.answersFromAFold(error) {
            Self.noteTablesLeftBehind(error)
            return try ReadModelEngine(store: store).fold()
        }
    }

    /// Runs `body` on the read models of the requested view as stored tables. Tables that stand
    /// at the end of the log are read in the snapshot that found them so, which makes an answer
    /// of several reads one moment's, and one transaction on a server. Otherwise see
    /// `storedModels(in:)`, where a view folded for this answer holds only the tables it
    /// `reads`.
    func withStoredModels<T>(reading tables: TableChoice = .all, _ body: (StoredReadModels) throws -> T) throws -> T {
        let reader = try storeOptions.openForReading()
        if try view == .latest, let answer = try StoredReadModels.whenCurrent(reader, body) { return answer }
        return try body(storedModels(in: reader, tables: tables))
    }

    /// The read models of the requested view as stored tables when `withStoredModels` found the
    /// latest view's tables behind the log: the store's own once the projector that leads or
    /// this process has brought them up to its end; for an as-of view, or a store this process
    /// may not write while its tables lag, a scratch copy folded for the view.
    private func storedModels(in reader: any EventStore, tables: TableChoice) throws -> StoredReadModels {
        let view = try self.view
        guard view == .latest else {
            let scratch = try ReadModelEngine(store: reader).scratch(view, tables: tables)
            try noteViewOutsideLog(view, scratch, in: reader)
            return scratch
        }
        if let applied = try projectorsTables(reader) { return applied }
        do {
            let store = try storeOptions.open()
            try ReadModelCache.shared.catchUp(store)
            store.settle()
            return try StoredReadModels(source: store)
        } catch let error as StoreError where Self.answersFromAFold(error) {
            Self.noteTablesLeftBehind(error)
            return try ReadModelEngine(store: reader).scratch(.latest, tables: tables)
        }
    }

    /// Whether a query whose tables lag the log and cannot be written (a store this process may
    /// not write, or a full disk) still answers, from a fold of the log; its tables stay behind.
    private static func answersFromAFold(_ error: StoreError) -> Bool {
        error.refusesWrites || error.isDiskFull
    }

    /// Says on standard error that a full disk kept the tables behind: the answer is right, but
    /// slower, and every query will fold the log until someone frees space. A store this
    /// process may not write is no news to its user and goes unmentioned.
    private static func noteTablesLeftBehind(_ error: StoreError) {
        guard case .diskFull(let path) = error else { return }
        Terminal.writeError(
            "gtio: warning: the disk holding \(path) is full (or a file size limit was reached): the read models could not be brought up to date, so this answer was folded from the log; free space to keep them current\n")
    }

    /// How long a query waits for the projector that leads before it catches the tables up
    /// itself: long enough for the projector to apply a large ingest.
    static let projectorWait = 60.0

    /// The tables once the projector that leads (`gtio project --follow`) has applied the log as
    /// it stood when the query came; nil when none leads, or it has not within `projectorWait`.
    /// Waiting for it beats doing its work again: a catch-up here would take the tables' write lock,
    /// and a store opened with a reader's rights could only fold the whole log.
    private func projectorsTables(_ store: any EventStore) throws -> StoredReadModels? {
        guard try store.isLed(ReadModelFollower.role) else { return nil }
        let target = try store.lastSeq()
        return try Self.whileProjectorLeads(store, waiting: "to apply the log through seq \(target)") {
            try StoredReadModels.applied(through: target, in: store)
        }
    }

    /// Asks `probe` every 25 ms while a projector leads `store`, until it answers or
    /// `projectorWait` has passed; nil when it never answered. Past a second it says on standard
    /// error what it is waiting for (`waiting`, after "waiting for the projector that leads").
    static func whileProjectorLeads<T>(_ store: any EventStore, waiting: String, _ probe: () throws -> T?) throws -> T? {
        let started = Date()
        var said = false
        while try store.isLed(ReadModelFollower.role), Date().timeIntervalSince(started) < projectorWait {
            if let answer = try probe() { return answer }
            if !said, Date().timeIntervalSince(started) > 1 {
                Terminal.writeError("gtio: waiting for the projector that leads \(waiting)\n")
                said = true
            }
            Thread.sleep(forTimeInterval: 0.025)
        }
        return nil
    }

    /// Says on standard error when an as-of view ends before the log begins, or an at-seq view
    /// past its end: the answer is then empty, or the whole log's, which the person may not expect.
    private func noteViewOutsideLog(_ view: LogView, _ models: StoredReadModels, in store: any EventStore) throws {
        let last = try store.lastSeq()
        switch view {
        case .atSeq(let seq) where seq > last:
            Terminal.writeError("note: --at-seq \(seq) is past the end of the log (its last seq is \(last)): this is the whole log's answer\n")
        case .asOf(let moment) where models.eventCount == 0 && last > 0:
            let first = try store.event(at: 1).map { " (its first event, seq 1, is at \($0.event.at))" } ?? ""
            Terminal.writeError("note: --as-of \(moment) is before the log begins\(first): no event is in view\n")
        default:
            break
        }
    }

    /// Says on standard error when `days` (asked as `asked`, e.g. "--date 2021-05-01") lie wholly
    /// before or after the days of the log in view: the answer's zeros then mean that the log
    /// has nothing there, not a quiet day, and a mistyped year would otherwise pass unseen.
    func noteDaysOutsideLog(_ days: ClosedRange<Int64>, asked: String, _ models: StoredReadModels) throws {
        guard let logged = try models.loggedDays() else { return }
        if days.lowerBound > logged.upperBound {
            Terminal.writeError(
                "note: \(asked) is after the last day of the log in view (\(Timestamp.dateString(ofDay: logged.upperBound))): no event lies there\n")
        } else if days.upperBound < logged.lowerBound {
            Terminal.writeError(
                "note: \(asked) is before the log's first day (\(Timestamp.dateString(ofDay: logged.lowerBound))): no event lies there\n")
        }
    }

    /// Prints or writes `table` in the requested format.
    func emit(_ table: ResultTable) throws { try output.emit(table) }
}

/// `--limit N` with a per-command default; 0 means no limit.
func checkedLimit(_ limit: Int) throws -> Int? {
    guard limit >= 0 else { throw ValidationError("--limit must be 0 (no limit) or more, got \(limit)") }
    return limit == 0 ? nil : limit
}
