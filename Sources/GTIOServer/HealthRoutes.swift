import Foundation
import GTIOProjections
import GTIOStore
import GTIOTables
import Hummingbird
import NIOCore
import Prometheus

/// `/health` (the process answers), `/ready` (the store answers, takes commits, and the read
/// models are loaded and close behind the log) and `/metrics` (Prometheus text). None needs a
/// key: they say nothing about the events.
struct HealthRoutes: Sendable {
    let store: any EventStore
    let projector: ReadModelProjector
    let commits: CommitQueue
    let maxLag: Int64
    let registry: PrometheusCollectorRegistry

    func register(on router: Router<ServerContext>) {
        router.get("/health") { _, _ in
            Self.json(.ok, JSONRenderer.object([("status", .text("ok"))]))
        }
        router.get("/ready") { _, _ in try await self.ready() }
        router.get("/metrics") { _, _ in
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                            body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }

    private func ready() async throws -> Response {
        let store = self.store, projector = self.projector, maxLag = self.maxLag, commits = self.commits
        return try await ReadAPI.offLoop {
            let last: Int64, applied: Int64
            do {
                last = try store.lastSeq()
                applied = try StoredReadModels(source: store).lastSeq
            } catch {
                return Self.json(.serviceUnavailable, JSONRenderer.object([("ready", .bool(false)), ("reason", .text("the store does not answer: \(error)"))]))
            }
            let lag = last - applied
            var reason: String?
            if !projector.isLoaded { reason = "the read models are still loading" }
            if let failure = projector.lastFailure { reason = "the read models failed to catch up: \(failure)" }
            if lag > maxLag { reason = "the read models are \(lag) events behind the log (at most \(maxLag))" }
            // Not ready for a while after a commit failed on a full disk, so that a balancer
            // sends events elsewhere; then ready again, for the next commit to find out whether
            // space came back.
            if let full = commits.diskFull, Date().timeIntervalSince(full.at) < Double(ServerError.fullRetryAfter) {
                reason = "commits fail: the disk holding the store (\(full.path)) is full"
            }
            let body = JSONRenderer.object([
                ("ready", .bool(reason == nil)), ("last_seq", .integer(last)), ("read_models_seq", .integer(applied)),
                ("lag", .integer(lag)), ("reason", Cell(reason)),
            ])
            return Self.json(reason == nil ? .ok : .serviceUnavailable, body)
        }
    }

    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
