import Crypto
import Foundation

/// The writer's private signing key, kept outside the store: signs each batch's head as it is
/// appended, so that whoever can write the store file still cannot forge, rewrite or cut the
/// log without `verify --key` noticing.
public struct BatchSigner: Sendable {
    /// The key's raw 32 bytes: Crypto's key type is not Sendable, so it is made where used.
    private let raw: [UInt8]
    private var key: Curve25519.Signing.PrivateKey {
        // The bytes were a valid key when this value was made.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// A new random key.
    public init() { raw = Array(Curve25519.Signing.PrivateKey().rawRepresentation) }

    /// The key written in `path` by `write(to:)`.
    public init(contentsOf path: String) throws(SigningKeyError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .cannotRead(path: path, reason: (error as NSError).localizedDescription)
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == Self.fileTag else {
            throw .badPrivateKey(path: path, reason: "the file does not start with \(Self.fileTag)")
        }
        guard let bytes = Hex.bytes(words[1]), bytes.count == 32,
              (try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes)) != nil else {
            throw .badPrivateKey(path: path, reason: "the key is not 64 hexadecimal digits")
        }
        self.raw = bytes
    }

    static let fileTag = "gtio-ed25519-private-key"

    public var publicKey: SigningPublicKey { SigningPublicKey(key.publicKey) }

    /// Writes the key to a new file that only its owner can read; never overwrites one.
    public func write(to path: String) throws(SigningKeyError) {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: path) else { throw .alreadyExists(path: path) }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        } catch {
            throw .cannotWrite(path: path, reason: (error as NSError).localizedDescription)
        }
        let text = "\(Self.fileTag) \(Hex.text(raw))\n"
        guard manager.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw .cannotWrite(path: path, reason: "the file could not be created (check the folder's permissions)")
        }
    }

    /// Signs the head of `record`'s batch.
    public func sign(record: BatchRecord, lastSeq: Int64, head: [UInt8]) -> BatchSignature {
        let digest = record.digest
        let message = BatchSignature.message(batch: record.batch, lastSeq: lastSeq, head: head, record: digest)
        // Signing fails only on a broken random source; the key itself is always usable.
        let signature = (try? key.signature(for: message)).map(Array.init) ?? []
        return BatchSignature(batch: record.batch, lastSeq: lastSeq, head: head, record: digest,
                              publicKey: publicKey.bytes, signature: signature)
    }
}
