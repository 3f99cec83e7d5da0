/// A signed head written out of the store, for a witness outside it (a cron mail, a ticket):
/// one line that `verify --anchor` later holds the log to, so a cut tail cannot go unnoticed
/// even by someone who also deletes the tail's signatures.
public enum HeadAnchor {
    static let tag = "gtio-anchor-v1"

    /// The line for `signature`.
    public static func line(_ signature: BatchSignature) -> String {
        [tag, "batch=\(signature.batch)", "seq=\(signature.lastSeq)", "head=\(Hex.text(signature.head))",
         "record=\(Hex.text(signature.record))", "key=\(Hex.text(signature.publicKey))",
         "signature=\(Hex.text(signature.signature))"].joined(separator: " ")
    }

    /// Every anchor line of `text` (blank lines and `#` comments skipped).
    public static func parse(_ text: String) throws(SigningKeyError) -> [BatchSignature] {
        var anchors: [BatchSignature] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = raw.split(separator: " ")
            if words.isEmpty || words[0].hasPrefix("#") { continue }
            guard words[0] == tag else { throw .badAnchor(line: index + 1, reason: "it does not start with \(tag)") }
            var fields: [Substring: Substring] = [:]
            for word in words.dropFirst() {
                guard let equals = word.firstIndex(of: "=") else { throw .badAnchor(line: index + 1, reason: "\"\(word)\" is not name=value") }
                fields[word[..<equals]] = word[word.index(after: equals)...]
            }
            func number(_ name: Substring) throws(SigningKeyError) -> Int64 {
                guard let text = fields[name], let value = Int64(text) else { throw .badAnchor(line: index + 1, reason: "\(name)= is missing or not a number") }
                return value
            }
            func bytes(_ name: Substring, _ count: Int) throws(SigningKeyError) -> [UInt8] {
                guard let text = fields[name], let value = Hex.bytes(text), value.count == count else {
                    throw .badAnchor(line: index + 1, reason: "\(name)= is missing or not \(count * 2) hexadecimal digits")
                }
                return value
            }
            anchors.append(BatchSignature(
                batch: try number("batch"), lastSeq: try number("seq"), head: try bytes("head", 32),
                record: try bytes("record", 32), publicKey: try bytes("key", 32), signature: try bytes("signature", 64)))
        }
        return anchors
    }
}
