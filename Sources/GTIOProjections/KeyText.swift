import Crypto
import GTIOStore

/// Free text as a table's key column holds it (`rm_places`, `rm_post_brands`, the price
/// groups), beside the text itself: a text of up to `TableLayout.indexedCharacters` characters
/// is its own key; a longer one is its first 137 characters, "…" and the SHA-256 of its UTF-8
/// bytes in hex, 202 characters in all.
///
/// PostgreSQL keeps a key in a btree entry of at most ~2.7 KB, so one long place name would
/// fail every write of the table. The two lengths never meet and the digest tells long texts
/// apart, so distinct texts keep distinct keys whoever chooses them.
enum KeyText {
    static func of(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > TableLayout.indexedCharacters else { return text }
        var key = String.UnicodeScalarView(scalars.prefix(137))
        key.append("\u{2026}")
        let hex = Array("0123456789abcdef".unicodeScalars)
        for byte in SHA256.hash(data: Array(text.utf8)) {
            key.append(hex[Int(byte >> 4)])
            key.append(hex[Int(byte & 0x0F)])
        }
        return String(key)
    }
}
