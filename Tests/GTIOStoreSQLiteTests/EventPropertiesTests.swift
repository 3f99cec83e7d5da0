import Foundation
import GRDB
import GTIOCatalog
import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStoreSQLite

/// A post's brands and place, kept as rows beside the event so that no reader parses JSON.
@Suite struct EventPropertiesTests {
    let folder = TemporaryDirectory()
    static let line = #"{"id":"e1","type":"post.created","at":"2012-04-23T10:00:00Z","user":"u1","data":{"post":"p1","kind":"product","voting":true,"brands":["Zara","Gap"],"price":12.5,"product":"pr1","location":{"name":"Soho","lat":40.72,"lon":-74.0}}}"#
    static let expected = [
        EventProperty(name: "brands", position: 0, text: "Zara"), EventProperty(name: "brands", position: 1, text: "Gap"),
        EventProperty(name: "location.lat", number: 40.72), EventProperty(name: "location.lon", number: -74.0),
        EventProperty(name: "location.name", text: "Soho"),
    ]

    func records(_ store: SQLiteStore) throws -> [LogRecord] {
        var found: [LogRecord] = []
        try store.scan(LogScope()) { found.append($0) }
        return found
    }

    @Test func appendKeepsThemAndAScanReadsThemWithThePrice() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try store.append(batch([try EventValidator.validate(Self.line).get(), heart("e2")]))
        let found = try records(store)
        #expect(found[0].properties == Self.expected)
        #expect(found[0].number == 12.5 && found[0].object == "pr1")
        #expect(found[1].properties.isEmpty)
        #expect(throws: DatabaseError.self) {
            try store.pool.write { try $0.execute(sql: "UPDATE event_properties SET text = 'Gucci' WHERE seq = 1") }
        }
        #expect(throws: DatabaseError.self) {
            try store.pool.write { try $0.execute(sql: "REPLACE INTO event_properties (seq, name, position, text) VALUES (1, 'brands', 0, 'x')") }
        }
    }

    @Test func aStoreFromBeforeTheTableGetsThemFromTheOriginalsOnce() throws {
        let path = folder.file("old.gtio")
        do {
            let store = try SQLiteStore(path: path)
            _ = try store.append(batch([heart("e0"), try EventValidator.validate(Self.line).get()]))
            // Back to a store written before the table existed (the index v5 also made, v8 dropped).
            try store.pool.write { db in
                try db.execute(sql: """
                    DROP TABLE event_properties;
                    DELETE FROM grdb_migrations WHERE identifier = 'v5 event properties';
                    """)
            }
        }
        let reopened = try SQLiteStore(path: path)
        #expect(try records(reopened)[1].properties == Self.expected)
        guard case .intact = try reopened.verify() else { Issue.record("the chain must not change"); return }
    }
}
