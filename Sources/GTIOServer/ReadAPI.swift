import Foundation
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOStore
import GTIOTables
import Hummingbird
import NIOCore

/// `GET /v1/…`: the answers of the console's queries as JSON, the same rows as `--format json`,
/// read from the read models in the store; and moderators' decisions.
///
/// Each answer carries an `ETag` naming the log position it reflects, so a dashboard polling
/// with `If-None-Match` gets 304 without the query being run until the log moves.
struct ReadAPI: Sendable {
    let store: any EventStore
    let gate: AccessGate
    let projector: ReadModelProjector
    let cache: AnswerCache

    func register(on router: Router<ServerContext>) {
        // The key is checked before anything else of a request is read: a request without one
        // is a 401 whatever its parameters.
        let reads = router.group().add(middleware: ReadKeyCheck(gate: gate))
        reads.get("/v1/looks/{tab}") { request, context in
            let tabName = try Self.pathParameter("tab", of: context)
            guard let tab = LooksTab(rawValue: tabName) else {
                throw ServerError.notFound("unknown tab \"\(tabName)\" (popular, new, top or wear-it)")
            }
            let limit = try Self.limit(request, default: 20)
            let place = request.uri.queryParameters.get("place")
            return try await self.answer(request, takes: ["limit", "place"], reading: .looks) { models in
                .table(AnswerTable.looks(try models.looks(tab, limit: limit, place: place)))
            }
        }
        reads.get("/v1/verdicts") { request, _ in
            let limit = try Self.limit(request, default: nil)
            return try await self.answer(request, takes: ["limit"], reading: .verdicts) { models in
                .table(AnswerTable.verdicts(try models.verdicts(limit: limit)))
            }
        }
        reads.get("/v1/posts/{id}") { request, context in
            let post = try Self.pathParameter("id", of: context)
            return try await self.answer(request) { models in
                guard let found = try AnswerTable.post(post, hearters: 0, in: models) else {
                    if let id = try models.post(namedByItemID: post) {
                        throw ServerError.notFound("unknown post \"\(post)\": that is the id of a queue item; its post's id is \"\(id)\" (/v1/posts/\(Self.segment(id)))")
                    }
                    throw ServerError.notFound("unknown post \"\(post)\": no post.created with that id in the log")
                }
                return .row(found.table)
            }
        }
        reads.get("/v1/users/{id}") { request, context in
            let user = try Self.pathParameter("id", of: context)
            return try await self.answer(request) { models in
                guard let found = try AnswerTable.user(user, posts: 0, in: models) else { throw Self.unknown(user) }
                return .row(found.table)
            }
        }
        reads.get("/v1/users/{id}/followers") { request, context in
            try await self.follows(request, context, StoredReadModels.followers)
        }
        reads.get("/v1/users/{id}/following") { request, context in
            try await self.follows(request, context, StoredReadModels.following)
        }
        reads.get("/v1/users/{id}/suggestions") { request, context in
            let user = try Self.pathParameter("id", of: context)
            let page = try Self.integer(request, "page", default: 1, minimum: 1)
            let size = try Self.integer(request, "page_size", default: 10, minimum: 1)
            return try await self.answer(request, takes: ["page", "page_size"], reading: .suggestions) { models in
                .table(AnswerTable.suggestions(try models.suggestions(for: user, page: page, pageSize: size)))
            }
        }
        reads.get("/v1/flags") { request, _ in
            let limit = try Self.limit(request, default: nil)
            let query = request.uri.queryParameters
            let filter = QueueFilter(reason: query.get("reason"), author: query.get("author"))
            return try await self.answer(request, takes: ["limit", "reason", "author"], reading: .queue) { models in
                let queue = try models.moderationQueue(filter, limit: limit)
                return .table(AnswerTable.flags(queue))
            }
        }
        reads.get("/v1/stats") { request, _ in
            let date = request.uri.queryParameters.get("date")
            let day: Int64? = try date.map { text in
                guard let start = Timestamp(date: text) else {
                    throw ServerError.badParameter("date: \"\(text)\" is not a date (expected YYYY-MM-DD)")
                }
                return start.day
            }
            return try await self.answer(request, takes: ["date"], reading: .engagement) { models in
                let day = day ?? models.today
                return .row(try AnswerTable.stats(try models.engagement(on: day), in: models))
            }
        }
        router.post("/v1/flags/{item}/resolve") { request, context in
            try await self.resolve(request, context: context)
        }
    }

    /// An answer: a table sent as an array of rows, or its one row as an object.
    enum Answer {
        case table(ResultTable)
        case row(ResultTable)
    }

    private func follows(
        _ request: Request, _ context: ServerContext,
        _ list: @escaping @Sendable (StoredReadModels) -> (String, Int?) throws -> [(user: String, name: String?)]
    ) async throws -> Response {
        let user = try Self.pathParameter("id", of: context)
        let limit = try Self.limit(request, default: nil)
        return try await answer(request, takes: ["limit"], reading: .follows) { models in
            guard try models.knows(user: user) else { throw Self.unknown(user) }
            return .table(AnswerTable.follows(try list(models)(user, limit)))
        }
    }

    /// `id` as a path segment names it: percent-encoded but for RFC 3986's unreserved characters
    /// and `:` (an item's `post:`), as `pathParameter` decodes it.
    private static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? id
    }

    private static let segmentCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")

    private static func unknown(_ user: String) -> ServerError {
        .notFound("unknown user \"\(user)\": no event in the log names them")
    }

    /// Checks the query's parameters (`takes`, besides `as_of` and `at_seq`), picks the view,
    /// answers 304 when `If-None-Match` names the position the answer would reflect, and runs
    /// `query` off the event loop; a view folded for the answer holds only the tables it
    /// `reads`. The key was checked before (`ReadKeyCheck`).
    private func answer(
        _ request: Request, takes names: [String] = [], reading tables: TableChoice = .all,
        _ query: @escaping @Sendable (StoredReadModels) throws -> Answer
    ) async throws -> Response {
        // The router passes over an empty segment, so `/v1/users//followers` would otherwise
        // answer for the user "followers".
        if request.uri.path.contains("//") {
            let path = request.uri.path.escapingControls(keepingLineBreaks: false)
            throw ServerError.notFound("\(path) has an empty segment: an id is missing between two slashes")
        }
        let parameters = request.uri.queryParameters
        // As on the command line, where an option given twice or unknown is refused: which of the
        // two a client meant is not for the server to guess, and a misspelt `limt=5` would
        // otherwise answer as if it were not there.
        let known = names + ["as_of", "at_seq"]
        var seen = Set<Substring>()
        // A stray `&` (`?&limit=1`) names nothing and is let be.
        for (name, value) in parameters where !(name.isEmpty && value.isEmpty) {
            guard known.contains(where: { $0 == name }) else {
                let shown = String(name).escapingControls(keepingLineBreaks: false)
                throw ServerError.badParameter("unknown parameter \"\(shown)\": this endpoint takes \(known.joined(separator: ", "))")
            }
            if !seen.insert(name).inserted { throw ServerError.badParameter("\(name) is given twice; give it once") }
        }
        let asOf = parameters.get("as_of"), atSeq = parameters.get("at_seq")
        if asOf != nil && atSeq != nil { throw ServerError.badParameter("give as_of or at_seq, not both") }
        let view: LogView
        if let asOf {
            guard let moment = Timestamp(rfc3339: asOf) ?? Timestamp(date: asOf).map({ Timestamp.endOfDay($0.day) }) else {
                throw ServerError.badParameter("as_of: \"\(asOf)\" is not a time (expected YYYY-MM-DD or an ISO 8601 time with its offset)")
            }
            view = .asOf(moment)
        } else if let atSeq {
            guard let seq = Int64(atSeq), seq >= 0 else { throw ServerError.badParameter("at_seq: \"\(atSeq)\" is not a seq (0 or more)") }
            view = .atSeq(seq)
        } else {
            view = .latest
        }
        let store = self.store, cache = self.cache
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let key = request.uri.description
        // The tag first (a position read moments ago, or one read for every request that asks
        // meanwhile), so that a 304 or a kept answer costs no query.
        if view == .latest {
            let seq = try await cache.position { try StoredReadModels(source: store).lastSeq }
            let tag = "\"\(seq)\""
            if ifNoneMatch == tag { return Self.notModified(tag) }
            if let kept = cache.answer(for: key, tag: tag) { return Self.ok(kept, tag: tag) }
        }
        return try await Self.offLoop {
            let tag: String
            var models: StoredReadModels?
            switch view {
            case .latest:
                let generation = cache.generation
                guard let built = try StoredReadModels.built(store) else {
                    throw ServerError.notReady("the read models are not built yet: the server builds them from the log as it starts; retry shortly")
                }
                models = built
                tag = "\"\(built.lastSeq)\""
                cache.notePosition(built.lastSeq, readSince: generation)
            case .atSeq(let seq):
                tag = "\"s\(min(seq, try store.lastSeq()))\""
            case .asOf(let moment):
                // Events appended later may be older than the moment: the log's end is in the tag.
                tag = "\"a\(moment.milliseconds)-\(try store.lastSeq())\""
            }
            if ifNoneMatch == tag { return Self.notModified(tag) }
            let json: String
            if let kept = cache.answer(for: key, tag: tag) {
                json = kept
            } else {
                switch try query(models ?? ReadModelEngine(store: store).scratch(view, tables: tables)) {
                case .table(let table): json = JSONRenderer.render(table)
                case .row(let table):
                    json = JSONRenderer.object(Array(zip(table.columns, table.rows.first ?? []))) + "\n"
                }
                cache.keep(json, for: key, tag: tag)
            }
            return Self.ok(json, tag: tag)
        }
    }

    private static func ok(_ json: String, tag: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .eTag: tag], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    private static func notModified(_ tag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: tag])
    }

    /// `POST /v1/flags/{item}/resolve` with `{"action": "remove"|"dismiss", "version": N,
    /// "moderator"?: …, "note"?: …}`: the decision as `resolve` appends it, refused with 409
    /// when the item changed since `version` or has nothing open.
    private func resolve(_ request: Request, context: ServerContext) async throws -> Response {
        let keyName = try gate.check(request, needs: .moderate)
        var request = request
        let buffer = try await request.collectBody(upTo: 64 << 10)
        let object: JSONObject
        do {
            guard case .object(let parsed) = try Array(buffer.readableBytesView).withUnsafeBufferPointer({ try JSONReader.parse($0) }) else {
                throw ServerError.badParameter("the body must be a JSON object: {\"action\": \"remove\", \"version\": N}")
            }
            object = parsed
        } catch let error as JSONSyntaxError {
            throw ServerError.notJSON("\(error)")
        }
        let item = try Self.pathParameter("item", of: context)
        guard case .string(let action)? = object["action"], action == "remove" || action == "dismiss" else {
            throw ServerError.badParameter("\"action\" must be \"remove\" or \"dismiss\"")
        }
        guard case .number(let number)? = object["version"], let version = number.integer else {
            throw ServerError.badParameter("\"version\" must be the item's version as flags lists it (the seq of its latest open flag)")
        }
        let moderator: String
        if case .string(let named)? = object["moderator"] { moderator = named } else { moderator = keyName ?? "" }
        guard !moderator.isEmpty, moderator.unicodeScalars.count <= 64 else {
            throw ServerError.badParameter("\"moderator\": a moderator id of 1–64 characters (the key's name by default)")
        }
        let note: String?
        if case .string(let text)? = object["note"] { note = text } else { note = nil }
        let store = self.store, projector = self.projector
        return try await Self.offLoop {
            guard let models = try projector.current() else { throw ServerError.notReady("the read models are still loading; retry shortly") }
            let moment = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
            let seqs: [Int64]
            do {
                seqs = try ModerationDesk(store: store).resolve(
                    [.init(item: item, expectedVersion: version)], action: action, moderator: moderator, note: note,
                    at: moment, from: { models })
            } catch let refusal as ModerationDesk.Refusal {
                switch refusal {
                case .malformed(let word):
                    // A bare post or review id, pointed at its item's path where the tables can say cheaply.
                    if let named = StoredReadModels.item(namedByBareID: word, in: store) {
                        throw ServerError.badParameter("\(refusal); it is a \(named.kind): /v1/flags/\(Self.segment(named.description))/resolve")
                    }
                    throw ServerError.badParameter(refusal.description)
                case .invalidDecision: throw ServerError.badParameter(refusal.description)
                case .noSuchItem: throw ServerError.notFound(refusal.description)
                case .nothingOpen, .changed: throw ServerError.conflict(refusal.description)
                }
            }
            projector.nudge()
            let body = JSONRenderer.object([
                ("item", .text(item)), ("action", .text(action)), ("moderator", .text(moderator)), ("seq", .integer(seqs[0])),
            ]) + "\n"
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// The path parameter `name`, percent-decoded: an id that is not plain ASCII, or that holds
    /// a space, reaches the server as URLs carry it (`/v1/users/%C3%A9` for the user `é`).
    private static func pathParameter(_ name: String, of context: ServerContext) throws -> String {
        let raw = context.parameters.get(name) ?? ""
        guard let decoded = raw.removingPercentEncoding else {
            throw ServerError.badParameter("\(name): \"\(raw)\" is not percent-encoded UTF-8 (a % is written %25)")
        }
        return decoded
    }

    private static func limit(_ request: Request, default value: Int?) throws -> Int? {
        guard let text = request.uri.queryParameters.get("limit") else { return value }
        guard let limit = Int(text), limit >= 0 else { throw ServerError.badParameter("limit: \"\(text)\" is not 0 (all) or more") }
        return limit == 0 ? nil : limit
    }

    private static func integer(_ request: Request, _ name: String, default value: Int, minimum: Int) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), number >= minimum else { throw ServerError.badParameter("\(name): \"\(text)\" must be \(minimum) or more") }
        return number
    }

    /// Runs blocking store work on a GCD thread, off the event loops and the cooperative pool.
    static func offLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
