import GTIOCatalog
import GTIOInsights
import GTIOStore
import GTIOStoreSQLite
import GTIOTables
import GTIOTestSupport

/// A hand-made log in a real store, event by event, for insight tests: each event is a JSON
/// line through the validator, so its properties are extracted as ingest extracts them.
final class InsightLog {
    let folder = TemporaryDirectory()
    private var lines: [ValidatedEvent] = []

    /// Adds an event of `type` at `at` (RFC 3339, or a bare `YYYY-MM-DDTHH:MM` taken as UTC).
    func add(_ type: String, _ at: String, user: String? = "u1", device: String? = nil, _ data: String = "{}") {
        let time = at.count == 16 ? at + ":00Z" : at
        var line = #"{"id":"e\#(lines.count + 1)","type":"\#(type)","at":"\#(time)""#
        if let user { line += #","user":"\#(user)""# }
        if let device { line += #","device":"\#(device)""# }
        line += #","data":\#(data)}"#
        lines.append(try! EventValidator.validate(line).get())
    }

    func track(_ name: String, _ at: String, user: String = "u1", props: String? = nil) {
        add("track", at, user: user, #"{"name":"\#(name)"\#(props.map { #","props":\#($0)"# } ?? "")}"#)
    }

    /// The store holding the events so far.
    func reader(_ view: InsightView = InsightView()) throws -> InsightReader {
        let store = try SQLiteStore(path: folder.file("insights-\(lines.count).gtio"))
        _ = try store.append(batch(lines))
        return InsightReader(store: store, view: view)
    }

    /// The window of these days.
    static func days(_ from: String, _ to: String) -> InsightWindow {
        InsightWindow(from: Timestamp(date: from)!.day, to: Timestamp(date: to)!.day)
    }
}

extension ResultTable {
    /// The rows as CSV lines without the header, for exact comparisons.
    var lines: [String] { rows.map { $0.map(\.plainText).joined(separator: ",") } }
}
