import Foundation
import GTIOStore
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Connections to one PostgreSQL server, lent to one caller at a time and kept for the next.
///
/// The store protocols are synchronous (the console, the ingest pipeline and the collector's
/// writer run on threads of their own), so a caller blocks on postgres-nio's futures, which
/// complete on the shared event loop group: never call in from an event loop thread.
final class PostgresConnectionPool: @unchecked Sendable {
    // @unchecked: `idle`, `nextID` and `early` are only touched while holding `lock`.
    let location: PostgresLocation
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let lock = NSLock()
    private var idle: [(connection: PostgresConnection, unread: UnreadAnswer)] = []
    private var nextID = 0
    /// Connections kept for reuse; more are opened when needed and closed when given back.
    private let keep = 4
    /// A connection begun before this pool was made (`PostgresPreconnection`): its first.
    private var early: PostgresPreconnection?

    init(_ location: PostgresLocation) throws(StoreError) {
        self.location = location
        logger = Self.logger
        if let early = PostgresPreconnection.take(location) {
            configuration = try early.configuration()
            self.early = early
        } else {
            configuration = try Self.configuration(for: location)
        }
    }

    /// postgres-nio's logger for gtio's connections: critical messages only, as what fails
    /// reaches the caller as an error.
    static var logger: Logger {
        var logger = Logger(label: "gtio.postgres")
        logger.logLevel = .critical
        return logger
    }

    /// A new connection made as `configuration` says, on the shared event loop group.
    static func connect(_ configuration: PostgresConnection.Configuration, id: Int) throws -> PostgresConnection {
        try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger
        ).wait()
    }

    /// How postgres-nio is to connect to `location`: its TLS set up as the URL's `sslmode` asks.
    static func configuration(for location: PostgresLocation) throws(StoreError) -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch location.tls {
            case .disable:
                tls = .disable
            case .prefer, .require:
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                let context = try NIOSSLContext(configuration: settings)
                tls = location.tls == .prefer ? .prefer(context) : .require(context)
            case .verifyCA, .verifyFull:
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = location.tls == .verifyFull ? .fullVerification : .noHostnameVerification
                tls = .require(try NIOSSLContext(configuration: settings))
            }
        } catch {
            throw .cannotOpen(path: location.description, reason: "TLS could not be set up: \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout))
        return configuration
    }

    deinit {
        for (connection, unread) in idle { Self.close(connection, after: unread) }
    }

    /// Runs `body` with a connection of its own, given back afterwards unless it broke.
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        let (connection, unread) = try checkOut()
        let session = PostgresSession(connection: connection, logger: logger, unread: unread)
        do {
            let result = try body(session)
            checkIn(connection, unread)
            return result
        } catch {
            if connection.isClosed { try? connection.close().wait() } else { checkIn(connection, unread) }
            throw error
        }
    }

    /// A connection of the caller's own, never pooled: for what lives with a session (a lead's
    /// advisory lock, LISTEN), closed by the caller.
    func dedicated() throws -> PostgresSession {
        PostgresSession(connection: try connect(), logger: logger)
    }

    private func checkOut() throws -> (PostgresConnection, UnreadAnswer) {
        lock.lock()
        while let (connection, unread) = idle.popLast() {
            if !connection.isClosed {
                lock.unlock()
                return (connection, unread)
            }
        }
        lock.unlock()
        return (try connect(), UnreadAnswer())
    }

    private func connect() throws -> PostgresConnection {
        lock.lock()
        nextID += 1
        let id = nextID
        let early = self.early
        self.early = nil
        lock.unlock()
        if let early {
            let (connection, seconds) = early.connection()
            do {
                return try connection.get()
            } catch {
                throw failure(connecting: error, after: seconds)
            }
        }
        let started = Date()
        do {
            return try Self.connect(configuration, id: id)
        } catch {
            throw failure(connecting: error, after: Date().timeIntervalSince(started))
        }
    }

    /// What a connection that could not be set up means for the command: a database that is
    /// not there is a store named wrongly, like a missing file; anything else, a store that
    /// could not be opened.
    private func failure(connecting error: any Error, after seconds: Double) -> StoreError {
        if PostgresFailure(error).state == Self.invalidCatalogName {
            return .noDatabase(path: location.description, database: location.database)
        }
        return .cannotOpen(path: location.description, reason: Self.describe(connecting: error, after: seconds))
    }

    /// The SQLSTATE of a connection to a database the server does not have.
    private static let invalidCatalogName = "3D000"

    /// Why a connection could not be set up, in words: postgres-nio says `serverClosedConnection`
    /// alike for a connect that timed out and for a server that hung up, and names TLS refused by
    /// its code only.
    private static func describe(connecting error: any Error, after seconds: Double) -> String {
        guard let error = error as? PSQLError, error.serverInfo == nil else { return PostgresFailure.describe(error) }
        if error.code == .sslUnsupported {
            return "the server does not take TLS connections, which the URL's sslmode asks for "
                + "(use sslmode=prefer or disable, or turn ssl on in the server)"
        }
        guard PostgresFailure.closedCodes.contains(error.code) else { return PostgresFailure.describe(error) }
        return seconds >= connectTimeout - 0.5
            ? "no answer from the server within \(Int(connectTimeout)) s (check the URL's host and port, and any firewall between)"
            : "the server closed the connection before it was set up (check the URL's host and port: is PostgreSQL listening there?)"
    }

    /// The longest a connection takes to be set up before it is given up.
    static let connectTimeout = 10.0

    private func checkIn(_ connection: PostgresConnection, _ unread: UnreadAnswer) {
        lock.lock()
        if idle.count < keep && !connection.isClosed {
            idle.append((connection, unread))
            lock.unlock()
        } else {
            lock.unlock()
            Self.close(connection, after: unread)
        }
    }

    /// Closes `connection` once the answer nobody waited for has come (see `UnreadAnswer`).
    private static func close(_ connection: PostgresConnection, after unread: UnreadAnswer) {
        unread.settle(on: connection)
        try? connection.close().wait()
    }
}
