import Foundation
import GRDB
@testable import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing
@testable import GTIOProjections

/// The rebuild's reading thread: chunks in order with the ids they introduce, and every way a
/// scan can stop early ends that thread instead of leaving it blocked.
@Suite(.timeLimit(.minutes(1))) struct KeyedScanTests {
    let folder = TemporaryDirectory()

    /// A store of `count` random events: chunks hold 4,096 and eight are in flight at most.
    func store(_ count: Int) throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let events = RandomLog.events(seed: 7, count: count)
        _ = try store.append(EventBatch(source: "gen", events: events.enumerated().map { ($0.offset, $0.element) }))
        return store
    }

    @Test func chunksComeInSeqOrderWithTheIdsTheyFirstKeyedAndTheirDevicesToKey() throws {
        let store = try store(9_000)
        let scan = KeyedScan(keys: KeyTable(), users: KeyTable())
        var adopted = KeyTable(), adoptedUsers = KeyTable(), devices = KeyTable(), seqs: [Int64] = [], chunks = 0
        var keyed: [KeyedEvent] = []
        try scan.run(store, LogScope()) { chunk in
            adopted.adopt(chunk.newIDs)
            adoptedUsers.adopt(chunk.newUsers)
            chunk.devices.key(&chunk.events, with: &devices)
            chunks += 1
            for event in chunk.events {
                seqs.append(event.seq)
                // Every key an event carries was introduced by this chunk or an earlier one.
                #expect(event.user < adoptedUsers.count && event.object < adopted.count)
                #expect(event.subject < (event.type.targetsUser ? adoptedUsers.count : adopted.count))
            }
            keyed += chunk.events
        }
        #expect(chunks == 3)
        #expect(seqs == Array(1...9_000))
        #expect(adopted.ids == scan.keys.ids && adoptedUsers.ids == scan.users.ids)
        // The same keys as records keyed one by one, devices included.
        var table = KeyTable(), userTable = KeyTable(), deviceTable = KeyTable(), index = 0
        try store.scan(LogScope()) { record in
            let expected = table.keyed(record, users: &userTable, devices: &deviceTable)
            let event = keyed[index]
            let keys: [Int] = [event.user, event.device, event.subject, event.object]
            let expectedKeys: [Int] = [expected.user, expected.device, expected.subject, expected.object]
            #expect(keys == expectedKeys)
            #expect(event.list == expected.list)
            index += 1
        }
        #expect(index == 9_000)
        #expect(table.ids == adopted.ids && userTable.ids == adoptedUsers.ids && deviceTable.ids == devices.ids)
        #expect(devices.count > 1)
    }

    @Test func aFoldThatStopsAtTheFirstChunkEndsTheReadingThreadAndKeepsItsTable() throws {
        struct Stop: Error {}
        // More than the eight buffers in flight hold, so that the reader is waiting for one.
        let store = try store(40_000)
        let scan = KeyedScan(keys: KeyTable(), users: KeyTable())
        var chunks = 0
        #expect(throws: Stop.self) {
            try scan.run(store, LogScope()) { _ in
                chunks += 1
                // Time for the reader to fill every buffer and wait for a free one, which the
                // fold's stopping must then release.
                Thread.sleep(forTimeInterval: 1)
                throw Stop()
            }
        }
        #expect(chunks == 1)
        // The reader's tables are handed back whole, whatever they keyed before it stopped.
        #expect(scan.keys.count > 1 && scan.keys.key(scan.keys.ids[1]) == 1)
        #expect(scan.users.count > 1 && scan.users.key(scan.users.ids[1]) == 1)
    }

    @Test func aRowTheReaderCannotReadFailsTheFoldAfterTheChunksBeforeIt() throws {
        let store = try store(5_000)
        // A type this gtio does not know, appended behind the store's back (with the trigger
        // that wants the append path's hash dropped): the scan reaches it after one chunk.
        try store.writeDatabase { db in
            try db.execute(sql: """
                DROP TRIGGER events_append;
                INSERT INTO events (seq, id, type, at, recorded, v, original, batch)
                VALUES (5001, 'e-unknown', 'post.teleported', 0, 0, 1, '{}', 1)
                """)
        }
        let error = #expect(throws: StoreError.self) { try ReadModelEngine(store: store).fold() }
        #expect(error.map { "\($0)".contains("event 5001 has a type unknown to this gtio") } == true)
    }
}
