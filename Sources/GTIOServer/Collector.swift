import CompressNIO
import GTIOCatalog
import GTIOStore
import GTIOTables
import Hummingbird
import NIOCore

/// `POST /Tracking` and `/v1/events`: what the app sends, checked event by event as `ingest`
/// checks lines, appended through the commit queue, and answered per event.
struct Collector: Sendable {
    let configuration: ServerConfiguration
    let gate: AccessGate
    let queue: CommitQueue

    /// What happened to one event of a request.
    enum Result {
        case appended(id: String, seq: Int64)
        case duplicate(id: String)
        case rejected(reason: String)
    }

    func register(on router: Router<ServerContext>) {
        router.post("/Tracking") { request, context in try await self.collect(request, context: context) }
        router.post("/v1/events") { request, context in try await self.collect(request, context: context) }
    }

    func collect(_ request: Request, context: ServerContext) async throws -> Response {
        try gate.check(request, needs: .write)
        guard let format = EventBody.Format(contentType: request.headers[.contentType]) else {
            throw ServerError.unsupportedMediaType(request.headers[.contentType] ?? "")
        }
        let texts = try EventBody.events(in: try await body(of: request), as: format)
        var batch = EventBatch(source: "http \(context.peer) \(context.id)")
        var results = [Result?](repeating: nil, count: texts.count)
        var indexOfEvent: [Int] = []
        // Each event's hash-chain digest is made here, on the request's thread, so that the
        // commit thread, which every request waits for, only links them.
        var chain = EventHashChain()
        for (index, text) in texts.enumerated() {
            let line = index + 1
            guard text.count <= configuration.maxEvent else {
                let reason = "event is \(text.count) bytes, over the limit of \(configuration.maxEvent) bytes per event"
                batch.rejected.append(RejectedLine(line: line, reason: reason, original: text))
                results[index] = .rejected(reason: reason)
                continue
            }
            if let event = text.withUnsafeBufferPointer({ batch.add($0, line: line) }) {
                indexOfEvent.append(index)
                chain.appendDigest(of: event, to: &batch.digests)
            } else {
                results[index] = .rejected(reason: batch.rejected.last!.reason)
            }
        }
        let outcome = texts.isEmpty ? AppendOutcome() : try await queue.submit(batch)
        var duplicates = outcome.duplicateIndexes.makeIterator()
        var nextDuplicate = duplicates.next()
        var seq = outcome.firstSeq ?? 0
        for (position, index) in indexOfEvent.enumerated() {
            let id = batch.events[position].event.id
            if position == nextDuplicate {
                results[index] = .duplicate(id: id)
                nextDuplicate = duplicates.next()
            } else {
                results[index] = .appended(id: id, seq: seq)
                seq += 1
            }
        }
        return Self.response(results.map { $0! }, outcome: outcome)
    }

    /// The body, gunzipped when it says so, within the per-request limit.
    private func body(of request: Request) async throws -> [UInt8] {
        var request = request
        var buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: configuration.maxBody)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ServerError.bodyTooLarge(limit: configuration.maxBody)
        } catch is NIOTooManyBytesError {
            throw ServerError.bodyTooLarge(limit: configuration.maxBody)
        }
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            break
        case "gzip", "x-gzip":
            // A gzip stream ends with its uncompressed length (mod 2^32). The decompressor hands
            // back what it read of a stream cut short as if it were whole, and stops at the end
            // of the first stream; those bytes would be taken for the body's events.
            let trailer = buffer.readableBytesView.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            do {
                buffer = try buffer.decompress(with: .gzip(), maxSize: configuration.maxBody)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                throw ServerError.bodyTooLarge(limit: configuration.maxBody)
            } catch {
                throw ServerError.badEncoding("\(error)")
            }
            guard UInt32(truncatingIfNeeded: buffer.readableBytes) == trailer else {
                throw ServerError.badEncoding("the gzip stream is cut short, or more follows its end")
            }
        case let other?:
            throw ServerError.badEncoding("Content-Encoding \(other) is not read here (gzip is)")
        }
        return Array(buffer.readableBytesView)
    }

    /// 200 with the totals and one result per event, in body order.
    static func response(_ results: [Result], outcome: AppendOutcome) -> Response {
        let totals: [(String, Cell)] = [
            ("received", .integer(Int64(results.count))), ("appended", .integer(Int64(outcome.appended))),
            ("duplicates", .integer(Int64(outcome.duplicates))), ("rejected", .integer(Int64(outcome.rejected))),
            ("first_seq", Cell(outcome.firstSeq)), ("last_seq", Cell(outcome.lastSeq)),
        ]
        // The results written straight into one string, not an array of members and a join per
        // event (`JSONRenderer.object`): under batches of 100 they are most of the server's
        // answering work (docs/PERFORMANCE.md).
        var body = String(JSONRenderer.object(encoded: totals.map { ($0.0, JSONRenderer.value($0.1)) }).dropLast())
        body.reserveCapacity(body.utf8.count + 64 * results.count + 16)
        body += ",\"results\":["
        for (index, result) in results.enumerated() {
            body += index == 0 ? "{\"index\":\(index),\"status\":" : ",{\"index\":\(index),\"status\":"
            switch result {
            case .appended(let id, let seq): body += "\"appended\",\"id\":" + JSONValue.quoted(id) + ",\"seq\":\(seq)}"
            case .duplicate(let id): body += "\"duplicate\",\"id\":" + JSONValue.quoted(id) + "}"
            case .rejected(let reason): body += "\"rejected\",\"reason\":" + JSONValue.quoted(reason) + "}"
            }
        }
        body += "]}\n"
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
