import Foundation
import GRDB
import GTIOStore

/// Reads the log on a second thread, keying each event's ids straight from SQLite's bytes, and
/// hands the fold chunks of keyed events on the calling thread, so that reading and folding
/// overlap. The chunks' buffers go back to the reader to be filled again: a million events'
/// chunks are ~100 MB, and a first touch of fresh memory costs 1.5–10 µs a page on this VM.
final class KeyedScan: @unchecked Sendable {
    // @unchecked: only the reading thread touches `table` and `userTable` until `run` has
    // returned (it waits for that thread to end), and only the caller's thread after.
    private var table: KeyTable
    private var userTable: KeyTable

    /// Events handed over at a time, and buffers in flight between the two threads.
    private static let chunkSize = 4096
    private static let buffers = 8

    /// A chunk of keyed events and the ids and users first keyed by them, in key order; their
    /// devices are numbers in `devices`, for the fold to key.
    struct Chunk {
        var events: [KeyedEvent]
        var newIDs: [String]
        var newUsers: [String]
        var devices: ChunkDevices
    }

    /// A scan that keys on from `keys` and `users`.
    init(keys: KeyTable, users: KeyTable) {
        table = keys
        userTable = users
    }

    /// The reader's tables: every id and every user the scan keyed. Read them after `run`
    /// returned or threw.
    var keys: KeyTable { table }
    var users: KeyTable { userTable }

    /// Scans `scope` of `store`, calling `body` with each chunk in `seq` order (to key its
    /// devices in place).
    func run(_ store: EventStore, _ scope: LogScope, _ body: (inout Chunk) throws -> Void) throws {
        let full = BatchChannel<Result<Chunk, any Error>>(capacity: Self.buffers)
        let free = BatchChannel<([KeyedEvent], ChunkDevices)>(capacity: Self.buffers)
        for _ in 0..<Self.buffers {
            var buffer: [KeyedEvent] = []
            buffer.reserveCapacity(Self.chunkSize)
            _ = free.send((buffer, ChunkDevices()))
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
                // Consumed: a `Result` kept alive beside the chunk made the fold's keying of its
                // devices copy the chunk's every event first.
                var chunk = try (consume item).get()
                try body(&chunk)
                chunk.events.removeAll(keepingCapacity: true)
                chunk.devices.removeAll()
                _ = free.send((chunk.events, chunk.devices))
            }
        } catch {
            full.cancel()
            free.close()
            throw error
        }
    }

    /// The reading thread's loop: fills a free buffer, sends it with the ids it added, repeats.
    private func read(_ store: EventStore, _ scope: LogScope, full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<([KeyedEvent], ChunkDevices)>) throws {
        // A local table: each access to the class's property paid a dynamic exclusivity check.
        var keys = KeyTable(), users = KeyTable()
        swap(&keys, &table)
        swap(&users, &userTable)
        defer {
            swap(&keys, &table)
            swap(&users, &userTable)
        }
        var handedOver = false
        try store.read { db in
            // The store retries a read that SQLite answered busy; once chunks have gone to the
            // fold, starting over would apply their events twice.
            guard !handedOver else { throw StoreError.busyMidScan }
            try Self.fill(db, scope, keys: &keys, users: &users, handedOver: &handedOver, full: full, free: free)
        }
    }

    /// The loop itself, on parameters and locals only: variables that a nested function or an
    /// outer closure captured were checked for exclusive access on every event (~5 % of the
    /// reading thread's instructions).
    private static func fill(
        _ db: Database, _ scope: LogScope, keys: inout KeyTable, users: inout KeyTable, handedOver: inout Bool,
        full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<([KeyedEvent], ChunkDevices)>
    ) throws {
        guard var (events, devices) = free.receive() else { throw CancellationError() }
        var sent = keys.count, sentUsers = users.count
        try EventStore.scanRows(scope, in: db) { row in
            try keys.key(row, into: &events, users: &users, devices: &devices)
            guard events.count == chunkSize else { return }
            let chunk = Chunk(events: events, newIDs: Array(keys.ids[sent...]), newUsers: Array(users.ids[sentUsers...]), devices: devices)
            // Let go of the buffers before waiting for the next, so the fold holds them alone
            // and can empty them in place.
            events = []
            devices = ChunkDevices()
            sent = keys.count
            sentUsers = users.count
            handedOver = true
            guard full.send(.success(chunk)), let buffers = free.receive() else { throw CancellationError() }
            (events, devices) = buffers
        }
        let last = Chunk(events: events, newIDs: Array(keys.ids[sent...]), newUsers: Array(users.ids[sentUsers...]), devices: devices)
        if !events.isEmpty, !full.send(.success(last)) {
            throw CancellationError()
        }
    }
}
