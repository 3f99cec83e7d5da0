import Crypto
import Foundation
import GTIOStore

/// What a key lets its holder do over HTTP.
public enum AccessRole: String, Sendable, CaseIterable, Comparable {
    /// Read the read API.
    case read
    /// Post events to the collector.
    case write
    /// Read, and decide flagged items.
    case moderate

    /// Whether a key of this role may do what `needed` allows.
    public func allows(_ needed: AccessRole) -> Bool {
        self == needed || (self == .moderate && needed == .read)
    }

    public static func < (a: AccessRole, b: AccessRole) -> Bool { a.rawValue < b.rawValue }
}

/// A key as the store lists it: never the secret itself, which is shown once when made.
public struct AccessKey: Sendable, Equatable {
    public var name: String
    public var role: AccessRole
    /// The first characters of the secret, to tell keys apart.
    public var prefix: String
    /// Wall-clock UTC ms when it was made, and when revoked.
    public var created: Int64
    public var revoked: Int64?
}

/// The keys the server accepts, kept in the store (`access_keys`) as SHA-256 digests: someone
/// who reads the store learns no key. A presented key is hashed and compared with every live
/// digest in constant time.
public enum AccessKeys {
    static let table = TableLayout(
        name: "access_keys",
        columns: [("name", .text), ("role", .text), ("digest", .blob), ("prefix", .text), ("created", .integer),
                  ("revoked", .integer)],
        keyCount: 1)

    /// Why a key could not be made or revoked.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case nameTaken(String)
        case badName(String)
        case noSuchKey(String)

        public var description: String {
            switch self {
            case .nameTaken(let name): "a key named \"\(name)\" exists already (gtio keys list shows them; revoke it first or pick another name)"
            case .badName(let name): "\"\(name)\" is not a key name: use 1–64 letters, digits, - _ or ."
            case .noSuchKey(let name): "no live key named \"\(name)\" (gtio keys list shows them)"
            }
        }
    }

    /// Makes a key of `role` named `name`, stores its digest, and returns the secret: the only
    /// time it is seen.
    public static func add(_ name: String, role: AccessRole, in store: any TableStore) throws -> String {
        guard !name.isEmpty, name.count <= 64,
              name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) })
        else { throw Failure.badName(name) }
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let secret = "gtio_\(role.rawValue)_" + bytes.map { String(format: "%02x", $0) }.joined()
        try store.writeTables { tx in
            if try !tx.hasTable(table.name) { try tx.create(table) }
            guard try tx.row("SELECT 1 FROM access_keys WHERE name = ?", [.text(name)]) == nil else {
                throw Failure.nameTaken(name)
            }
            try tx.insert([.text(name), .text(role.rawValue), .blob(digest(secret)), .text(String(secret.prefix(14))),
                           .integer(Int64(Date().timeIntervalSince1970 * 1000)), .null], into: table)
        }
        return secret
    }

    /// Revokes the live key `name`: it is refused from then on (a running server within a second).
    public static func revoke(_ name: String, in store: any TableStore) throws {
        try store.writeTables { tx in
            guard try tx.hasTable(table.name),
                  let row = try tx.row("SELECT name, role, digest, prefix, created FROM access_keys WHERE name = ? AND revoked IS NULL", [.text(name)])
            else { throw Failure.noSuchKey(name) }
            try tx.delete(from: table, key: [.text(name)])
            try tx.insert(row + [.integer(Int64(Date().timeIntervalSince1970 * 1000))], into: table)
        }
    }

    /// Every key, live and revoked, by name.
    public static func all(in source: any TableSource) throws -> [AccessKey] {
        try source.readTables { tables in
            guard try tables.hasTable(table.name) else { return [] }
            return try tables.rows("SELECT name, role, prefix, created, revoked FROM access_keys ORDER BY name").map {
                AccessKey(name: $0[0].string ?? "", role: AccessRole(rawValue: $0[1].string ?? "") ?? .read,
                          prefix: $0[2].string ?? "", created: $0[3].int64 ?? 0, revoked: $0[4].int64)
            }
        }
    }

    /// The live keys' digests and roles.
    static func live(in source: any TableSource) throws -> [(digest: [UInt8], role: AccessRole, name: String)] {
        try source.readTables { tables in
            guard try tables.hasTable(table.name) else { return [] }
            return try tables.rows("SELECT digest, role, name FROM access_keys WHERE revoked IS NULL").compactMap {
                guard case .blob(let digest) = $0[0], let role = AccessRole(rawValue: $0[1].string ?? "") else { return nil }
                return (digest, role, $0[2].string ?? "")
            }
        }
    }

    static func digest(_ secret: String) -> [UInt8] { Array(SHA256.hash(data: Data(secret.utf8))) }

    /// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
