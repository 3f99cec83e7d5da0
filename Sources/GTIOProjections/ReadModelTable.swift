import GRDB

/// One SQL table of a read model: its definition and, for a given state, its rows.
struct ReadModelTable: Sendable {
    var name: String
    /// Column definitions; the leading `keyCount` columns are the primary key.
    var columns: [(name: String, type: String)]
    var keyCount: Int
    /// Secondary indexes, each a list of column terms (`"followers DESC"`): what the queries
    /// walk to answer from the first rows rather than from all of them.
    var indexes: [[String]] = []

    var createSQL: String {
        let definitions = columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")
        let key = columns.prefix(keyCount).map(\.name).joined(separator: ", ")
        return "CREATE TABLE IF NOT EXISTS \(name) (\(definitions), PRIMARY KEY (\(key))) WITHOUT ROWID"
    }

    /// `CREATE INDEX` statements for `indexes`, named after the table and their columns.
    var indexSQL: [String] {
        indexes.map { terms in
            let name = ([name] + terms.map { $0.split(separator: " ")[0].lowercased() }).joined(separator: "_")
            return "CREATE INDEX IF NOT EXISTS \(name) ON \(self.name) (\(terms.joined(separator: ", ")))"
        }
    }

    var insertSQL: String {
        "INSERT INTO \(name) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    var orderedSelectSQL: String {
        "SELECT * FROM \(name) ORDER BY \(columns.prefix(keyCount).map(\.name).joined(separator: ", "))"
    }
}
