import Foundation
import GTIOStore
import PostgresNIO

/// A connection to the store's server begun as the process starts, for the first pool of the
/// same location to take as its first connection.
///
/// A one-shot answer spends milliseconds reading its command line, and as many starting NIO's
/// event loop and connecting (the server forks a backend for each connection): begun on a
/// thread of its own, the connection is made while the main thread parses, on a second core.
/// Nothing changes for the caller: a pool of another location never takes it, and one that
/// takes it gets what its own first connect would have given, failure included.
final class PostgresPreconnection: @unchecked Sendable {
    // @unchecked: `configured`, `connected` and `seconds` are only touched while holding `condition`.
    let location: PostgresLocation
    private let started = Date()
    private let condition = NSCondition()
    /// How to connect, or why TLS could not be set up; nil until known.
    private var configured: Result<PostgresConnection.Configuration, StoreError>?
    /// The connection or why there is none; nil until known.
    private var connected: Result<PostgresConnection, any Error>?
    /// Seconds from the start to the connection or its failure.
    private var seconds = 0.0

    private init(_ location: PostgresLocation) {
        self.location = location
    }

    /// The connection begun and not yet taken; at most one per process.
    nonisolated(unsafe) private static var pending: PostgresPreconnection?
    private static let lock = NSLock()

    /// Begins connecting to `location` on a thread of its own, unless a connection was begun already.
    static func begin(_ location: PostgresLocation) {
        let preconnection = PostgresPreconnection(location)
        lock.lock()
        guard pending == nil else {
            lock.unlock()
            return
        }
        pending = preconnection
        lock.unlock()
        NamedThread.start("pg-preconnect") { preconnection.connect() }
    }

    /// The connection begun for `location`, taken so that no other pool takes it; nil when none was.
    static func take(_ location: PostgresLocation) -> PostgresPreconnection? {
        lock.lock()
        defer { lock.unlock() }
        guard let preconnection = pending, preconnection.location == location else { return nil }
        pending = nil
        return preconnection
    }

    /// Closes the connection begun if nobody took it and it is made, so that the server sees
    /// it end rather than lose it with the process (which it may log as an error). One still
    /// being made is left: waiting for it could take the connect timeout.
    static func endUntaken() {
        lock.lock()
        let untaken = pending
        pending = nil
        lock.unlock()
        guard let untaken else { return }
        untaken.condition.lock()
        let connected = untaken.connected
        untaken.condition.unlock()
        if case .success(let connection)? = connected { try? connection.close().wait() }
    }

    private func connect() {
        let configured = Result { () throws(StoreError) in try PostgresConnectionPool.configuration(for: location) }
        settle { $0.configured = configured }
        guard case .success(let configuration) = configured else { return }
        let connected = Result { try PostgresConnectionPool.connect(configuration, id: 0) }
        settle {
            $0.connected = connected
            $0.seconds = Date().timeIntervalSince($0.started)
        }
    }

    /// Changes what the waiting threads wait for, and wakes them.
    private func settle(_ change: (PostgresPreconnection) -> Void) {
        condition.lock()
        change(self)
        condition.broadcast()
        condition.unlock()
    }

    /// What `read` gives once it gives something.
    private func wait<T>(for read: (PostgresPreconnection) -> T?) -> T {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = read(self) { return value }
            condition.wait()
        }
    }

    /// How to connect, as `PostgresConnectionPool.configuration(for:)` gives it.
    func configuration() throws(StoreError) -> PostgresConnection.Configuration {
        try wait { $0.configured }.get()
    }

    /// The connection, or why there is none, with the seconds it took to be made or to fail.
    /// Only after `configuration()` returned: there is no connection without one.
    func connection() -> (Result<PostgresConnection, any Error>, seconds: Double) {
        wait { preconnection in preconnection.connected.map { ($0, preconnection.seconds) } }
    }
}
