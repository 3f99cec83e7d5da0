/// The few words in which the read models' SQL (written once, for both backends) differs from
/// PostgreSQL's: placeholders are `?` or `?NNN` there and `$1, $2, …` here; `user`, a column of
/// the log and of several read models, is a reserved word here (bare, it means the session's
/// role); and SQLite's `IFNULL` is `COALESCE`. Everything else the read models use is standard SQL.
enum PostgresDialect {
    /// `sql` rewritten for PostgreSQL; quoted text, quoted names and comments are left alone.
    /// `placeholders: false` keeps `?` as it is (an analyst's statement has none to bind).
    static func translate(_ sql: String, placeholders: Bool = true) -> String {
        let text = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        var index = 0, parameter = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // Copied through its closing quote; a doubled quote inside is part of it.
                var end = index + 1
                while end < text.count {
                    if text[end] == byte {
                        if end + 1 < text.count && text[end + 1] == byte { end += 2; continue }
                        break
                    }
                    end += 1
                }
                let stop = min(end + 1, text.count)
                out.append(contentsOf: text[index..<stop])
                index = stop
            case UInt8(ascii: "-") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "-"):
                var end = index
                while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
                out.append(contentsOf: text[index..<end])
                index = end
            case UInt8(ascii: "?") where placeholders:
                // `?NNN` names its parameter, as in SQLite; a bare `?` takes the next one after
                // the largest named so far.
                var end = index + 1
                while end < text.count && text[end] >= 0x30 && text[end] <= 0x39 { end += 1 }
                if end > index + 1, let number = Int(String(decoding: text[(index + 1)..<end], as: UTF8.self)) {
                    parameter = max(parameter, number)
                    out.append(contentsOf: Array("$\(number)".utf8))
                } else {
                    parameter += 1
                    out.append(contentsOf: Array("$\(parameter)".utf8))
                }
                index = end
            default:
                guard isWordByte(byte) else {
                    out.append(byte)
                    index += 1
                    continue
                }
                var end = index
                while end < text.count && isWordByte(text[end]) { end += 1 }
                let word = text[index..<end]
                if word.elementsEqual("user".utf8) {
                    out.append(contentsOf: Array("\"user\"".utf8))
                } else if word.elementsEqual("IFNULL".utf8) || word.elementsEqual("ifnull".utf8) {
                    out.append(contentsOf: Array("COALESCE".utf8))
                } else {
                    out.append(contentsOf: word)
                }
                index = end
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
