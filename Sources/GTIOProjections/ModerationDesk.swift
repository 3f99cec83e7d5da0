import Foundation
import GTIOCatalog
import GTIOStore

/// Moderators' decisions: each is checked against the log and appended as a
/// `moderation.resolved` event in the same transaction, so two moderators deciding the same
/// item at once cannot both succeed.
public struct ModerationDesk: Sendable {
    /// One item to decide, and the version the moderator saw (the seq of its latest open flag).
    public struct Request: Sendable, Equatable {
        public var item: String
        public var expectedVersion: Int64?

        public init(item: String, expectedVersion: Int64? = nil) {
            self.item = item
            self.expectedVersion = expectedVersion
        }
    }

    /// Why a decision was refused; nothing was appended.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed(String)
        /// The decision's event would not be valid input (a moderator id holding a control
        /// character, say): the item and the validator's reason.
        case invalidDecision(String, reason: String)
        case noSuchItem(String)
        case nothingOpen(String, decidedBy: String?, at: Int64?, action: String?)
        case changed(String, expected: Int64, version: Int64, flaggers: Int)

        /// Whether the request itself was wrong (bad usage: exit 2, HTTP 400), as a malformed
        /// item or a decision the log would refuse is, rather than refused by the item's state.
        public var isUsageError: Bool {
            switch self {
            case .malformed, .invalidDecision: true
            case .noSuchItem, .nothingOpen, .changed: false
            }
        }

        public var description: String {
            switch self {
            case .malformed(let item):
                "\"\(item)\" is not an item (expected post:<id> or review:<id>)"
            case .invalidDecision(let item, let reason):
                "the decision on \(item) is not valid input: \(reason); nothing appended"
            case .noSuchItem(let item):
                "no such item \(item): nothing with that id was ever created (flags lists the open items)"
            case .nothingOpen(let item, let moderator?, let at?, let action?):
                "\(item) has no open flags: \(moderator) decided it (\(action)) at \(Timestamp(milliseconds: at)); nothing appended"
            case .nothingOpen(let item, _, _, _):
                "\(item) has no open flags, so there is nothing to decide; nothing appended"
            case .changed(let item, let expected, let version, let flaggers):
                "\(item) changed since you looked (version \(expected), now \(version) with \(flaggers) flagger\(flaggers == 1 ? "" : "s")); look again with item \(item), nothing appended"
            }
        }
    }

    public let store: any EventStore

    public init(store: any EventStore) {
        self.store = store
    }

    /// Decides every item of `requests` alike, all or nothing; returns the appended seqs.
    /// `models` gives a recent view of the log (say the REPL's); events after it are folded in
    /// inside the transaction before checking. It is asked for only once the request is well
    /// formed and the tables, where they stand at the log's end, have not refused it: a lone
    /// writer's view is the saved state read back (seconds and gigabytes on a large log).
    public func resolve(
        _ requests: [Request], action: String, moderator: String, note: String?, at: Timestamp,
        from models: () throws -> ReadModels
    ) throws -> [Int64] {
        try checkWellFormed(requests, action: action, moderator: moderator, note: note, at: at)
        if let refusal = try refusalFromTables(requests) { throw refusal }
        let models = try models()
        return try store.write { tx in
            var state = models.state
            try tx.scan(LogScope(afterSeq: state.lastSeq)) { state.apply($0) }
            for request in requests { try check(request, Facts(request.item, in: state)) }
            return try append(requests, action: action, moderator: moderator, note: note, at: at, in: tx)
        }
    }

    /// Decides as `resolve(_:…from:)` does, checked against the read-model tables rather than a
    /// folded state: what a process that holds no fold does while a projector keeps the tables.
    /// Nil, with nothing appended, when the tables do not stand at the end of the log inside
    /// the write transaction (the projector has not applied the latest batch yet): ask again.
    public func resolveFromTables(
        _ requests: [Request], action: String, moderator: String, note: String?, at: Timestamp
    ) throws -> [Int64]? {
        try checkWellFormed(requests, action: action, moderator: moderator, note: note, at: at)
        return try store.write { tx -> [Int64]? in
            // The log's writer holds its lock for the whole transaction: the log cannot move
            // between this look and the append, and tables standing at its end cannot either.
            guard try check(requests, in: tx) else { return nil }
            return try append(requests, action: action, moderator: moderator, note: note, at: at, in: tx)
        }
    }

    /// The refusal the tables give `requests` while they stand at the log's end; nil when they
    /// accept every one, or lag. A decision refused there (no such item, nothing open, changed
    /// since the moderator looked) is refused without the log's state; one accepted is checked
    /// again where it is appended.
    private func refusalFromTables(_ requests: [Request]) throws -> Refusal? {
        try store.readTables { tables -> Refusal? in
            do {
                _ = try check(requests, in: tables)
                return nil
            } catch let refusal as Refusal {
                return refusal
            }
        }
    }

    /// Checks `requests` against the read-model tables; false, with nothing checked, when they
    /// do not stand at the end of the log.
    private func check(_ requests: [Request], in tables: any TableReading) throws -> Bool {
        guard try StoredReadModels.position(in: tables, appliedThrough: nil) != nil else { return false }
        for request in requests { try check(request, try Facts(request.item, in: tables)) }
        return true
    }

    /// Refuses what no state of the log could make right: an item id that is not one, or a
    /// decision the validator would refuse.
    private func checkWellFormed(_ requests: [Request], action: String, moderator: String, note: String?, at: Timestamp) throws {
        for request in requests {
            guard ItemRef(request.item) != nil else { throw Refusal.malformed(request.item) }
            _ = try decisionEvent(request.item, action: action, moderator: moderator, note: note, at: at)
        }
    }

    private func append(
        _ requests: [Request], action: String, moderator: String, note: String?, at: Timestamp, in tx: any LogWriting
    ) throws -> [Int64] {
        var events: [(line: Int, event: ValidatedEvent)] = []
        for (index, request) in requests.enumerated() {
            events.append((index + 1, try decisionEvent(request.item, action: action, moderator: moderator, note: note, at: at)))
        }
        let outcome = try tx.append(EventBatch(source: "console:resolve", events: events))
        guard let first = outcome.firstSeq, outcome.appended == requests.count else {
            throw StoreError.database("a decision's id was already in the log; nothing appended")
        }
        return Array(first...(first + Int64(requests.count) - 1))
    }

    /// What a decision is checked against: whether the item was ever created, its open flags,
    /// and the last decision on it. Read from a fold or from the tables, checked by one rule.
    private struct Facts {
        var exists: Bool
        var open: (flaggers: Int, version: Int64)?
        var lastDecision: (moderator: String, at: Int64, action: String)?

        init(_ item: String, in state: CommunityState) {
            let ref = ItemRef(item)
            exists = ref.map { $0.kind == .post ? state.post(id: $0.id) != nil : state.reviews[$0.id] != nil } ?? false
            if let entry = state.items[item], !entry.open.isEmpty { open = (entry.open.count, entry.lastFlagSeq) }
            lastDecision = state.decisions.last { $0.item.isExactly(item) }.map { ($0.moderator, $0.at, $0.action) }
        }

        init(_ item: String, in tables: any TableReading) throws {
            let ref = ItemRef(item)
            let (table, key) = ref?.kind == .review ? ("rm_reviews", "review") : ("rm_posts", "post")
            exists = try tables.row("SELECT 1 FROM \(table) WHERE \(key) = ?", [.text(ref?.id ?? "")]) != nil
            open = try tables.row("SELECT flaggers, version FROM rm_flags WHERE item = ?", [.text(item)])
                .map { ($0[0].int, $0[1].int64 ?? 0) }
            lastDecision = try tables.row(
                "SELECT moderator, at, action FROM rm_decisions WHERE item = ? ORDER BY seq DESC LIMIT 1", [.text(item)])
                .map { ($0[0].string ?? "", $0[1].int64 ?? 0, $0[2].string ?? "") }
        }
    }

    private func check(_ request: Request, _ facts: Facts) throws {
        let item = request.item
        guard facts.exists else { throw Refusal.noSuchItem(item) }
        guard let open = facts.open else {
            let last = facts.lastDecision
            throw Refusal.nothingOpen(item, decidedBy: last?.moderator, at: last?.at, action: last?.action)
        }
        if let expected = request.expectedVersion, expected != open.version {
            throw Refusal.changed(item, expected: expected, version: open.version, flaggers: open.flaggers)
        }
    }

    /// The event as a producer would have sent it, validated like any other input.
    private func decisionEvent(_ item: String, action: String, moderator: String, note: String?, at: Timestamp) throws -> ValidatedEvent {
        var data = "{\"item\":\(JSONValue.quoted(item)),\"action\":\(JSONValue.quoted(action))"
        if let note { data += ",\"note\":\(JSONValue.quoted(note))" }
        data += "}"
        let id = "console-" + UUID().uuidString.lowercased()
        let line = "{\"id\":\"\(id)\",\"type\":\"moderation.resolved\",\"at\":\"\(at)\",\"user\":\(JSONValue.quoted(moderator)),\"data\":\(data)}"
        switch EventValidator.validate(line) {
        case .success(let event): return event
        case .failure(let rejection): throw Refusal.invalidDecision(item, reason: "\(rejection)")
        }
    }
}
