import Foundation
import GTIOCatalog


/// Reads the log on a second thread and hands the fold chunks of keyed events on the calling one.
///
/// Reading and folding overlap; ids are keyed straight from the backend's bytes. The chunks'
/// buffers go back to the reader to be filled again, since a first touch of fresh memory is
/// dear and a whole log's chunks would be a lot of it.
public final class KeyedScan: @unchecked Sendable {
    // @unchecked: only the reading thread touches `table` and `userTable` until `run` has
    // returned (it waits for that thread to end), and only the caller's thread after.
    private var table: KeyTable
    private var userTable: KeyTable

    /// Events handed over at a time, and buffers in flight between the two threads.
    private static let chunkSize = 4096
    private static let buffers = 8

    /// A chunk of keyed events and the ids and users first keyed by them, in key order; their
    /// devices are numbers in `devices`, for the fold to key.
    public struct Chunk: Sendable {
        public var events: [KeyedEvent]
        public var newIDs: [String]
        public var newUsers: [String]
        public var devices: ChunkDevices
    }

    /// The columns read of each type, by `EventType.caseIndex`.
    private let columns: [EventColumns]

    /// A scan that keys on from `keys` and `users`, reading of each event only the columns
    /// `columns` names for its type (its other fields are left nil).
    public init(keys: KeyTable, users: KeyTable, columns: @escaping (EventType) -> EventColumns = \.columns) {
        table = keys
        userTable = users
        self.columns = EventType.allCases.map(columns)
    }

    /// The reader's tables: every id and every user the scan keyed. Read them after `run`
    /// returned or threw.
    public var keys: KeyTable { table }
    public var users: KeyTable { userTable }

    /// Scans `scope` of `store`, calling `body` with each chunk in `seq` order (to key its
    /// devices in place).
    public func run(_ store: any EventLog, _ scope: LogScope, _ body: (inout Chunk) throws -> Void) throws {
        let full = BatchChannel<Result<Chunk, any Error>>(capacity: Self.buffers)
        let free = BatchChannel<([KeyedEvent], ChunkDevices)>(capacity: Self.buffers)
        for _ in 0..<Self.buffers {
            var buffer: [KeyedEvent] = []
            buffer.reserveCapacity(Self.chunkSize)
            _ = free.send((buffer, ChunkDevices()))
        }
        let finished = DispatchSemaphore(value: 0)
        NamedThread.start("gtio-scan") { [self] in
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
    private func read(_ store: any EventLog, _ scope: LogScope, full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<([KeyedEvent], ChunkDevices)>) throws {
        // A local table: each access to the class's property paid a dynamic exclusivity check.
        var keys = KeyTable(), users = KeyTable()
        swap(&keys, &table)
        swap(&users, &userTable)
        defer {
            swap(&keys, &table)
            swap(&users, &userTable)
        }
        try Self.fill(store, scope, columns: columns, keys: &keys, users: &users, full: full, free: free)
    }

    /// The loop itself, on parameters and locals only: variables that a nested function or an
    /// outer closure captures are checked for exclusive access on every event.
    private static func fill(
        _ store: any EventLog, _ scope: LogScope, columns: [EventColumns], keys: inout KeyTable, users: inout KeyTable,
        full: BatchChannel<Result<Chunk, any Error>>, free: BatchChannel<([KeyedEvent], ChunkDevices)>
    ) throws {
        guard var (events, devices) = free.receive() else { throw CancellationError() }
        var sent = keys.count, sentUsers = users.count
        try store.scanRows(scope) { row in
            try keys.key(row, columns: columns[row.type.caseIndex], into: &events, users: &users, devices: &devices)
            guard events.count == chunkSize else { return }
            let chunk = Chunk(events: events, newIDs: Array(keys.ids[sent...]), newUsers: Array(users.ids[sentUsers...]), devices: devices)
            // Let go of the buffers before waiting for the next, so the fold holds them alone
            // and can empty them in place.
            events = []
            devices = ChunkDevices()
            sent = keys.count
            sentUsers = users.count
            guard full.send(.success(chunk)), let buffers = free.receive() else { throw CancellationError() }
            (events, devices) = buffers
        }
        let last = Chunk(events: events, newIDs: Array(keys.ids[sent...]), newUsers: Array(users.ids[sentUsers...]), devices: devices)
        if !events.isEmpty, !full.send(.success(last)) {
            throw CancellationError()
        }
    }
}
