import Foundation
@testable import GTIOStorePostgres
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// A connection begun before the command line is parsed (`PostgresStore.beginConnecting`) is
/// the first connection of the first store of its location, and of no other; one that failed
/// fails that store's open with the words its own connect would have used. Serialized: a
/// process begins one such connection at a time.
@Suite(.serialized, .enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresPreconnectionTests {
    let folder = TemporaryDirectory()

    private func open(_ url: String) throws -> PostgresStore {
        try PostgresStore(url: url, readOnly: true, scratchTables: { try SQLiteStore.memoryTables() })
    }

    /// The id of the connection the store's next session runs on: the early one is 0, the pool's own count from 1.
    private func nextConnectionID(of store: PostgresStore) throws -> Int {
        try store.pool.withSession { $0.connection.id }
    }

    @Test func theFirstStoreOfItsLocationTakesTheConnectionBegun() throws {
        let url = try StoreBackend.postgres.location(in: folder)
        _ = try StoreBackend.postgres.open(in: folder)
        PostgresStore.beginConnecting(url: url)
        let store = try open(url)
        #expect(try nextConnectionID(of: store) == 0)
        #expect(try store.status().events == 0)
        #expect(PostgresPreconnection.take(try PostgresLocation(url: url)) == nil, "taken by the store")
    }

    @Test func aStoreOfAnotherLocationLeavesItAlone() throws {
        let url = try StoreBackend.postgres.location(in: folder)
        _ = try StoreBackend.postgres.open(in: folder)
        var components = try #require(URLComponents(string: url))
        components.path += "_elsewhere"
        let elsewhere = try #require(components.string)
        let other = try PostgresLocation(url: elsewhere)
        PostgresStore.beginConnecting(url: elsewhere)
        let store = try open(url)
        #expect(try nextConnectionID(of: store) == 1)
        let left = try #require(PostgresPreconnection.take(other), "still waiting to be taken")
        // That database does not exist: the server refused the connection.
        _ = try left.configuration()
        if case .success(let connection) = left.connection().0 { try connection.close().wait() }
    }

    @Test func aConnectionThatFailedFailsTheOpenInTheSameWords() throws {
        let server = try #require(StoreBackend.postgresServer)
        var url = try #require(URLComponents(string: server))
        url.port = 1  // nothing listens there
        let unreachable = try #require(url.string)
        func reason(_ open: () throws -> PostgresStore) -> String? {
            do {
                _ = try open()
                return nil
            } catch StoreError.cannotOpen(_, let reason) {
                return reason
            } catch {
                return "\(error)"
            }
        }
        let own = try #require(reason { try open(unreachable) })
        PostgresStore.beginConnecting(url: unreachable)
        #expect(reason { try open(unreachable) } == own)
        #expect(own.hasPrefix("the server refused the connection"))
    }
}
