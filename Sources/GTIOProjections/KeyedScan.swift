import Foundation
import GRDB
import GTIOStore

/// Reads the log on a second thread, keying each event's ids straight from SQLite's bytes, and
/// hands the fold chunks of keyed events on the calling thread, so that reading and folding
/// overlap. The chunks' buffers go back to the reader to be filled again: a million events'
/// chunks are ~100 MB, and a first touch of fresh memory costs 1.5–10 µs a page on this VM.
final class KeyedScan: @unchecked Sendable {
    // @unchecked: only the reading thread touches `table` until `run` has returned (it waits
    // for that thread to end), and only the caller's thread after.
    private var table: KeyTable

    /// Events handed over at a time, and buffers in flight between the two threads.
    private static let chunkSize = 4096
    private static let buffers = 8

    /// A chunk of keyed events and the ids first keyed by them, in key order.
    struct Chunk {
        var events: [KeyedEvent]
        var newIDs: [String]
    }

    /// A scan that keys on from `keys`.
    init(keys: KeyTable) {
        table = keys
    }

    /// The reader's table: every id the scan keyed. Read it after `run` returned or threw.
    var keys: KeyTable { table }

    /// Scans `scope` of `store`, calling `body` with each chunk in `seq` order.
    func run(_ store: EventStore, _ scope: LogScope, _ body: (Chunk) throws -> Void) throws {
        let full = BatchChannel<Result<Chunk, any Error>>(capacity: Self.buffers)
        let free = BatchChannel<[KeyedEvent]>(capacity: Self.buffers)
        for _ in 0..<Self.buffers {
            var buffer: [KeyedEvent] = []
            buffer.reserveCapacity(Self.chunkSize)
            _ = free.send(buffer)
        }
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread { [self] in
            defer {
                full.close()
                finished.signal()
            }
            do {
                try read(store, scope, full: full, free: free)
            } catch is CancellationError {
            } catch {
                _ = full.send(.failure(error))
            }
        }
        reader.start()
        defer { finished.wait() }
        do {
            while let item = full.receive() {
                var chunk = try item.get()
                try body(chunk)
                chunk.events.removeAll(keepingCapacity: true)
                _ = free.send(chunk.events)
            }
        } catch {
            full.cancel()
            free.close()
            throw error
        }
    }

    /// The reading thread's loop: fills a free buffer, sends it with the ids it added, repeats.
    private func read(_ store: EventStore, _ scope: LogScope, full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<[KeyedEvent]>) throws {
        // A local table: each access to the class's property paid a dynamic exclusivity check.
        var keys = KeyTable()
        swap(&keys, &table)
        defer { swap(&keys, &table) }
        var handedOver = false
        try store.read { db in
            // The store retries a read that SQLite answered busy; once chunks have gone to the
            // fold, starting over would apply their events twice.
            guard !handedOver else { throw StoreError.busyMidScan }
            try Self.fill(db, scope, keys: &keys, handedOver: &handedOver, full: full, free: free)
        }
    }

    /// The loop itself, on parameters and locals only: variables that a nested function or an
    /// outer closure captured were checked for exclusive access on every event (~5 % of the
    /// reading thread's instructions).
    private static func fill(
        _ db: Database, _ scope: LogScope, keys: inout KeyTable, handedOver: inout Bool,
        full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<[KeyedEvent]>
    ) throws {
        guard var events = free.receive() else { throw CancellationError() }
        var sent = keys.count
        try EventStore.scanRows(scope, in: db) { row in
            try keys.key(row, into: &events)
            guard events.count == chunkSize else { return }
            let chunk = Chunk(events: events, newIDs: Array(keys.ids[sent...]))
            // Let go of the buffer before waiting for the next, so the fold holds it alone and
            // can empty it in place.
            events = []
            sent = keys.count
            handedOver = true
            guard full.send(.success(chunk)), let buffer = free.receive() else { throw CancellationError() }
            events = buffer
        }
        if !events.isEmpty, !full.send(.success(Chunk(events: events, newIDs: Array(keys.ids[sent...])))) {
            throw CancellationError()
        }
    }
}
