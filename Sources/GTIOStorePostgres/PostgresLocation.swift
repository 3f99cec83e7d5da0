import Foundation
import GTIOStore

/// Where a PostgreSQL store is: a `postgresql://` URL, completed the way `psql` completes one,
/// from the standard `PG*` variables and the password file, so that operators configure gtio as
/// they configure every other PostgreSQL client.
public struct PostgresLocation: Sendable, Equatable {
    /// How the connection is encrypted (`sslmode`, libpq's names and meanings).
    public enum TLSMode: String, Sendable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS or no connection, without checking the certificate.
        case require
        /// TLS with the server's certificate checked against the system's authorities.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Whether `text` names a PostgreSQL store rather than a file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// The location `url` names; what it leaves out comes from `environment` (`PGHOST`, `PGPORT`,
    /// `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`), then the password file (`PGPASSFILE`
    /// or `~/.pgpass`), then libpq's defaults.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreError) {
        guard Self.isURL(url), let components = URLComponents(string: url) else {
            throw .cannotOpen(path: url, reason: "not a PostgreSQL URL (expected postgresql://USER@HOST:PORT/DATABASE)")
        }
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? env("PGHOST") ?? "localhost"
        if let port = components.port {
            self.port = port
        } else if let text = env("PGPORT") {
            guard let port = Int(text) else { throw .cannotOpen(path: url, reason: "PGPORT is \(text), not a port number") }
            self.port = port
        } else {
            port = 5432
        }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? env("PGUSER") ?? env("USER") ?? "postgres"
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? env("PGDATABASE") ?? user : path
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let mode = query["sslmode"] ?? env("PGSSLMODE") ?? "prefer"
        switch mode {
        case "allow": tls = .prefer
        default:
            guard let tls = TLSMode(rawValue: mode) else {
                throw .cannotOpen(path: url, reason: "sslmode \(mode) is not one of disable, allow, prefer, require, verify-ca, verify-full")
            }
            self.tls = tls
        }
        let unknown = Set(query.keys).subtracting(["sslmode"])
        if let name = unknown.sorted().first {
            throw .cannotOpen(path: url, reason: "the URL parameter \(name) is not supported (only sslmode)")
        }
        password = components.password ?? env("PGPASSWORD")
            ?? Self.passwordFile(environment).flatMap { Self.password(in: $0, host: host, port: port, database: database, user: user) }
    }

    /// The URL without its password, for messages and `status`.
    public var description: String {
        "postgresql://\(user)@\(host):\(port)/\(database)"
    }

    private static func passwordFile(_ environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
        return environment["HOME"].map { $0 + "/.pgpass" }
    }

    /// The password of the first line of a `.pgpass` file matching the connection
    /// (`host:port:database:user:password`, `*` matching anything, `\` escaping `:` and `\`).
    static func password(in file: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [], field = "", escaped = false
            for character in line {
                if escaped { field.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == ":" { fields.append(field); field = "" }
                else { field.append(character) }
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
