import Crypto
import Foundation

/// The public half of a signing key: what an auditor holds to check the store's signed heads.
public struct SigningPublicKey: Sendable, Equatable, CustomStringConvertible {
    /// The key's 32 raw bytes.
    public let bytes: [UInt8]
    /// Crypto's key type is not Sendable, so it is made where used; the bytes were checked.
    var key: Curve25519.Signing.PublicKey { try! Curve25519.Signing.PublicKey(rawRepresentation: bytes) }

    init(_ key: Curve25519.Signing.PublicKey) {
        self.bytes = Array(key.rawRepresentation)
    }

    /// A key from its 32 raw bytes (as stored beside each signature).
    public init(bytes: [UInt8]) throws(SigningKeyError) {
        guard bytes.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil else {
            throw .badPublicKey("not 32 bytes of an Ed25519 public key")
        }
        self.bytes = bytes
    }

    /// A key written as 64 hexadecimal digits, optionally after `ed25519:`.
    public init(text: String) throws(SigningKeyError) {
        var digits = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if digits.hasPrefix("ed25519:") { digits = digits.dropFirst("ed25519:".count) }
        guard let bytes = Hex.bytes(digits), bytes.count == 32 else {
            throw .badPublicKey("expected ed25519: and 64 hexadecimal digits, as gtio keys show prints")
        }
        try self.init(bytes: bytes)
    }

    /// `ed25519:` and the key in hexadecimal: the form `gtio keys show` prints and `--key` takes.
    public var description: String { "ed25519:" + Hex.text(bytes) }

    /// The first 8 hexadecimal digits, for messages.
    public var shortName: String { String(Hex.text(bytes).prefix(8)) }

    public static func == (a: SigningPublicKey, b: SigningPublicKey) -> Bool { a.bytes == b.bytes }
}
