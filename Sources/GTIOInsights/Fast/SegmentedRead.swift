import Foundation
import GTIOStore

/// Reads an insight's events on two threads, in segments of seqs taken in turn, and hands them
/// to the calling thread in seq order.
///
/// A window's scan is the store reading pages and decoding rows, on one core; the machine the
/// console is sized for has two. Each thread keys actors in tables of its own; the calling
/// thread maps their keys onto one, from the ids each chunk keyed first, so that an actor has
/// one key whichever thread read its events.
struct SegmentedRead {
    let store: any EventLog
    let scope: LogScope
    /// The seqs of `scope`'s events (`EventLog.seqSpan`).
    let span: ClosedRange<Int64>
    /// The seqs a segment spans.
    let segment: Int64
    let maker: InsightEventMaker

    static let threads = 2
    /// Events handed over at a time.
    static let chunkSize = 4096
    /// The chunks a thread may have waiting: room for two whole segments, so that the thread
    /// whose segment comes next reads it while the calling thread takes the other's.
    var chunksWaiting: Int { 2 * Int(segment) / Self.chunkSize + 2 }

    /// Some events of one segment, and the ids their thread keyed first in them, in key order.
    struct Chunk: Sendable {
        var events: [InsightEvent] = []
        var newUsers: [String] = []
        var newDevices: [String] = []
        /// The segment's last chunk.
        var endsSegment = false
    }

    func run(_ body: (InsightEvent) throws -> Void) throws {
        let segments = Int((span.upperBound - span.lowerBound) / segment) + 1
        let channels = (0..<Self.threads).map { _ in BatchChannel<Result<Chunk, any Error>>(capacity: chunksWaiting) }
        let finished = DispatchSemaphore(value: 0)
        for thread in 0..<Self.threads {
            let channel = channels[thread]
            Thread { [self] in
                defer {
                    channel.close()
                    finished.signal()
                }
                do {
                    try read(Array(stride(from: thread, to: segments, by: Self.threads)), into: channel)
                } catch is CancellationError {
                } catch {
                    _ = channel.send(.failure(error))
                }
            }.start()
        }
        // Whatever ends the loop, the threads stop (a cancelled channel refuses their chunks)
        // and are waited for before the store can be closed.
        defer {
            for channel in channels { channel.cancel() }
            for _ in 0..<Self.threads { finished.wait() }
        }
        var users = KeyTable(), devices = KeyTable()
        var userKeys = Array(repeating: [0], count: Self.threads), deviceKeys = userKeys
        for index in 0..<segments {
            let thread = index % Self.threads
            var ended = false
            while !ended {
                guard let item = channels[thread].receive() else {
                    preconditionFailure("a reading thread stopped before its segments were read")
                }
                let chunk = try item.get()
                for id in chunk.newUsers { userKeys[thread].append(users.intern(id)) }
                for id in chunk.newDevices { deviceKeys[thread].append(devices.intern(id)) }
                for var event in chunk.events {
                    event.user = userKeys[thread][event.user]
                    event.device = deviceKeys[thread][event.device]
                    try body(event)
                }
                ended = chunk.endsSegment
            }
        }
    }

    /// A reading thread: its segments in order, each scanned and sent in chunks.
    private func read(_ segments: [Int], into channel: BatchChannel<Result<Chunk, any Error>>) throws {
        var users = KeyTable(), devices = KeyTable()
        var chunk = Chunk(), sentUsers = users.count, sentDevices = devices.count
        func send(endsSegment: Bool) throws {
            // Copies: a slice would share the table's storage, and the table's next new id
            // would then copy all of it.
            chunk.newUsers = Array(users.ids[sentUsers...])
            chunk.newDevices = Array(devices.ids[sentDevices...])
            chunk.endsSegment = endsSegment
            (sentUsers, sentDevices) = (users.count, devices.count)
            guard channel.send(.success(chunk)) else { throw CancellationError() }
            chunk = Chunk()
        }
        for index in segments {
            var part = scope
            let first = span.lowerBound + Int64(index) * segment
            part.afterSeq = max(scope.afterSeq, first - 1)
            part.throughSeq = min(scope.throughSeq ?? .max, first + segment - 1)
            try store.scanRows(part) { row in
                chunk.events.append(try maker.event(row, users: &users, devices: &devices))
                if chunk.events.count == Self.chunkSize { try send(endsSegment: false) }
            }
            try send(endsSegment: true)
        }
    }
}
