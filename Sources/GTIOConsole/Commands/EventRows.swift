import GTIOCatalog
import GTIOStore
import GTIOTables

/// The columns `events` and `event` print for stored events.
enum EventRows {
    static let tableColumns = ["seq", "at", "type", "user", "subject", "detail"]
    static let fullColumns = [
        "seq", "id", "type", "at", "recorded", "user", "device", "v", "subject", "object", "value", "flag",
        "number", "text", "list",
    ]

    static func table(_ events: [StoredEvent], full: Bool, original: Bool) -> ResultTable {
        var columns = full ? fullColumns : tableColumns
        if original { columns.append("original") }
        var table = ResultTable(columns: columns)
        for stored in events {
            let e = stored.event
            var row: [Cell]
            if full {
                row = [
                    .integer(stored.seq), .text(e.id), .text(e.type.rawValue), .timestamp(e.at),
                    .timestamp(stored.recorded), Cell(e.user), Cell(e.device), .integer(e.version), Cell(e.subject),
                    Cell(e.object), Cell(e.value), Cell(e.flag), Cell(e.number), Cell(e.text),
                    e.type == .quickaddShown ? .text(e.list.joined(separator: " ")) : .null,
                ]
            } else {
                row = [.integer(stored.seq), .timestamp(e.at), .text(e.type.rawValue), Cell(e.user ?? e.device.map { "(\($0))" }),
                       Cell(e.subject), .text(detail(e))]
            }
            if original { row.append(.text(e.original)) }
            table.rows.append(row)
        }
        return table
    }

    /// The rest of an event's typed fields in a few words, for the table view.
    static func detail(_ e: ValidatedEvent) -> String {
        var parts: [String] = []
        if let value = e.value { parts.append(value) }
        if let object = e.object { parts.append("→ \(object)") }
        if let flag = e.flag { parts.append(flag ? "yes" : "no") }
        if let number = e.number { parts.append(Cell.number(number).plainText) }
        if !e.list.isEmpty { parts.append(e.list.joined(separator: ", ")) }
        if let text = e.text { parts.append("“\(text)”") }
        return parts.joined(separator: " ")
    }
}
