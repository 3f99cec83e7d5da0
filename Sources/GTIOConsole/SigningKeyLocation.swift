import Foundation
import GTIOStore

/// Where the writer's signing key lives: `$GTIO_SIGNING_KEY`, or `gtio/signing.key` in the
/// user's configuration folder. Kept out of the store by design: whoever can write the store
/// must not be able to sign.
enum SigningKeyLocation {
    static var environmentPath: String? {
        ProcessInfo.processInfo.environment["GTIO_SIGNING_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `$XDG_CONFIG_HOME/gtio/signing.key`, or `~/.config/gtio/signing.key`.
    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let configuration = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (configuration as NSString).appendingPathComponent("gtio/signing.key")
    }

    /// The path `keys new` writes to and writers read from.
    static var path: String { environmentPath ?? defaultPath }

    /// The signer for writing commands: nil when no key was ever made. A key named by
    /// `GTIO_SIGNING_KEY` must exist: a typo there must not silently stop the signing.
    static func signer() throws -> BatchSigner? {
        if environmentPath == nil, !FileManager.default.fileExists(atPath: defaultPath) { return nil }
        do {
            return try BatchSigner(contentsOf: path)
        } catch {
            throw ConsoleError.badArgument("\(error) (GTIO_SIGNING_KEY names the key that signs each batch)")
        }
    }

    /// The public key `verify` checks against: `--key` (the key's text, or a file holding it),
    /// else `$GTIO_VERIFY_KEY`; nil when neither is given.
    static func verifyingKey(_ option: String?) throws -> SigningPublicKey? {
        guard let given = option ?? ProcessInfo.processInfo.environment["GTIO_VERIFY_KEY"].flatMap({ $0.isEmpty ? nil : $0 })
        else { return nil }
        let text = FileManager.default.fileExists(atPath: given)
            ? ((try? String(contentsOfFile: given, encoding: .utf8)) ?? "") : given
        do {
            return try SigningPublicKey(text: text)
        } catch {
            throw ConsoleError.badArgument("--key \(given): \(error)")
        }
    }
}
