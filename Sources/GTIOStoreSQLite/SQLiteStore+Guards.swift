import GRDB
import GTIOStore

extension SQLiteStore {
    /// A trigger as `sqlite_master` keeps it: its table and the text of its `CREATE TRIGGER`.
    private struct Trigger: Equatable {
        var table: String
        var sql: String
    }

    /// The log's triggers that are not as this build's migrations make them; nil when a newer
    /// gtio's migrations went further.
    public func guardFindings() throws -> [LogGuardFinding]? {
        let made = try Self.madeTriggers.get()
        return try readDatabase { db in
            try StoreSchema.migrator.hasBeenSuperseded(db) ? nil : Self.compare(found: try Self.triggers(in: db), made: made)
        }
    }

    /// Drops each trigger that is not as the migrations make it, or that they do not make, and
    /// makes the missing and changed ones again from the migrations' own text.
    public func restoreGuards() throws -> [LogGuardFinding] {
        let made = try Self.madeTriggers.get()
        return try writeDatabase { db in
            let findings = Self.compare(found: try Self.triggers(in: db), made: made)
            for finding in findings {
                if finding.problem != .missing { try db.execute(sql: "DROP TRIGGER main.\(finding.name.quotedDatabaseIdentifier)") }
                if let trigger = made[finding.name] { try db.execute(sql: trigger.sql) }
            }
            return findings
        }
    }

    /// The triggers of a store made by this build: an empty store migrated in memory, so that
    /// the migrations stay the one place where the guards are written; once a process
    /// (`--restore-guards` asks, then the check).
    private static let madeTriggers = Result { () throws -> [String: Trigger] in
        let scratch = try DatabaseQueue()
        try StoreSchema.migrator.migrate(scratch)
        return try scratch.read(triggers)
    }

    /// Every trigger of the log's file, by name.
    private static func triggers(in db: Database) throws -> [String: Trigger] {
        var found: [String: Trigger] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM main.sqlite_master WHERE type = 'trigger'") {
            found[row[0]] = Trigger(table: row[1], sql: row[2] ?? "")
        }
        return found
    }

    /// What differs between the triggers `found` and those the migrations `made`, by table and
    /// name. Runs of white space are one space: a trigger's meaning is in its words.
    private static func compare(found: [String: Trigger], made: [String: Trigger]) -> [LogGuardFinding] {
        func words(_ sql: String) -> [Substring] { sql.split(whereSeparator: \.isWhitespace) }
        var findings: [LogGuardFinding] = []
        for (name, trigger) in made {
            let refuses = refusal(trigger.sql)
            guard let present = found[name] else {
                findings.append(LogGuardFinding(name: name, table: trigger.table, problem: .missing, refuses: refuses))
                continue
            }
            if present.table != trigger.table || words(present.sql) != words(trigger.sql) {
                findings.append(LogGuardFinding(name: name, table: trigger.table, problem: .changed, refuses: refuses))
            }
        }
        for (name, trigger) in found where made[name] == nil {
            findings.append(LogGuardFinding(name: name, table: trigger.table, problem: .foreign))
        }
        return findings.sorted { ($0.table, $0.name) < ($1.table, $1.name) }
    }

    /// The message a guard raises: what it refuses, in the words the person who tries gets.
    private static func refusal(_ sql: String) -> String {
        guard let start = sql.range(of: "RAISE(ABORT, '"), let end = sql.range(of: "')", range: start.upperBound..<sql.endIndex) else { return "" }
        return sql[start.upperBound..<end.lowerBound].replacingOccurrences(of: "''", with: "'")
    }
}
