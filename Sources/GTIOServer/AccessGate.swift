import Foundation
import GTIOStore
import Hummingbird
import NIOConcurrencyHelpers

/// Checks `Authorization: Bearer KEY` against the store's live keys, re-read at most once a
/// second so that a revoked key stops working within a second without a read per request.
final class AccessGate: Sendable {
    private struct Cache {
        var keys: [(digest: [UInt8], role: AccessRole, name: String)] = []
        var readAt: UInt64 = 0
        var loaded = false
    }

    private let store: any TableSource
    /// Without keys (`--no-auth`, loopback only): every request is let through.
    let open: Bool
    private let cache = NIOLockedValueBox(Cache())

    init(store: any TableSource, open: Bool) {
        self.store = store
        self.open = open
    }

    /// The name of the key that allows `needed`; throws 401 or 403 with what to do.
    @discardableResult
    func check(_ request: Request, needs needed: AccessRole) throws -> String? {
        if open { return nil }
        guard let header = request.headers[.authorization] else {
            throw ServerError.unauthorized("no key: send Authorization: Bearer <key> with a \(needed.rawValue) key (gtio keys add NAME --role \(needed.rawValue) makes one)")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ServerError.unauthorized("the Authorization header must be Bearer <key>")
        }
        let presented = AccessKeys.digest(parts[1].trimmingCharacters(in: .whitespaces))
        // Every live digest is compared, whichever matches, in constant time each.
        var found: (role: AccessRole, name: String)?
        for key in try keys() where AccessKeys.constantTimeEqual(key.digest, presented) {
            found = (key.role, key.name)
        }
        guard let found else { throw ServerError.unauthorized("unknown or revoked key (gtio keys list shows the live ones)") }
        guard found.role.allows(needed) else {
            throw ServerError.forbidden("key \"\(found.name)\" is a \(found.role.rawValue) key; this needs a \(needed.rawValue) key")
        }
        return found.name
    }

    private func keys() throws -> [(digest: [UInt8], role: AccessRole, name: String)] {
        let now = DispatchTime.now().uptimeNanoseconds
        if let fresh = cache.withLockedValue({ $0.loaded && (now < $0.readAt || now - $0.readAt < 1_000_000_000) ? $0.keys : nil }) {
            return fresh
        }
        let keys = try AccessKeys.live(in: store)
        cache.withLockedValue { $0 = Cache(keys: keys, readAt: now, loaded: true) }
        return keys
    }
}
