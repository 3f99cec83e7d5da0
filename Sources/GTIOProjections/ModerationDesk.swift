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
        case noSuchItem(String)
        case nothingOpen(String, decidedBy: String?, at: Int64?, action: String?)
        case changed(String, expected: Int64, version: Int64, flaggers: Int)

        public var description: String {
            switch self {
            case .malformed(let item):
                "\"\(item)\" is not an item (expected post:<id> or review:<id>)"
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
    /// `models` is a recent view of the log (say the REPL's); events after it are folded in
    /// inside the transaction before checking.
    public func resolve(
        _ requests: [Request], action: String, moderator: String, note: String?, at: Timestamp,
        from models: ReadModels
    ) throws -> [Int64] {
        for request in requests where ItemRef(request.item) == nil {
            throw Refusal.malformed(request.item)
        }
        return try store.write { tx in
            var state = models.state
            try tx.scan(LogScope(afterSeq: state.lastSeq)) { state.apply($0) }
            for request in requests { try check(request, in: state) }
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
    }

    private func check(_ request: Request, in state: CommunityState) throws {
        let item = request.item
        guard let ref = ItemRef(item) else { throw Refusal.malformed(item) }
        let exists = ref.kind == .post ? state.posts[ref.id] != nil : state.reviews[ref.id] != nil
        guard exists else { throw Refusal.noSuchItem(item) }
        guard let entry = state.items[item], !entry.open.isEmpty else {
            let last = state.decisions.last { $0.item == item }
            throw Refusal.nothingOpen(item, decidedBy: last?.moderator, at: last?.at, action: last?.action)
        }
        if let expected = request.expectedVersion, expected != entry.lastFlagSeq {
            throw Refusal.changed(item, expected: expected, version: entry.lastFlagSeq, flaggers: entry.open.count)
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
        case .failure(let rejection): throw Refusal.malformed("\(item): \(rejection)")
        }
    }
}
