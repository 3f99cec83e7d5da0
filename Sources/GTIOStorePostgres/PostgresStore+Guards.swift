import Foundation
import GTIOStore

extension PostgresStore {
    /// A trigger the migrations make: when it fires (`pg_trigger.tgtype`'s bits), the function
    /// it calls, and the statement that makes it.
    struct MadeTrigger {
        var table: String
        var type: Int
        var function: String
        var statement: String
    }

    /// The guards the migrations make, read from their own text (the latest definition of each
    /// function wins, as applying them in order leaves it), so that they stay the one place
    /// where the guards are written.
    static let madeGuards: (triggers: [String: MadeTrigger], functions: [String: (body: String, statement: String)]) = {
        var triggers: [String: MadeTrigger] = [:]
        var functions: [String: (body: String, statement: String)] = [:]
        for migration in PostgresSchema.migrations {
            for statement in PostgresSession.statements(migration.sql) {
                let code = statement.split(separator: "\n", omittingEmptySubsequences: false)
                    .drop { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") || $0.allSatisfy(\.isWhitespace) }
                    .joined(separator: "\n")
                let words = code.split(whereSeparator: \.isWhitespace).map(String.init)
                if words.starts(with: ["CREATE", "TRIGGER"]), let trigger = madeTrigger(words, statement: code) {
                    triggers[words[2]] = trigger
                } else if let at = words.firstIndex(of: "FUNCTION"), words.first == "CREATE", at + 1 < words.count,
                          let open = code.range(of: "$$"), let close = code.range(of: "$$", options: .backwards), open.upperBound <= close.lowerBound {
                    let name = String(words[at + 1].prefix { $0 != "(" })
                    let replacing = code.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
                    functions[name] = (String(code[open.upperBound..<close.lowerBound]), replacing)
                }
            }
        }
        return (triggers, functions)
    }()

    /// `CREATE TRIGGER name BEFORE|AFTER op [OR op …] ON table … FOR EACH ROW|STATEMENT
    /// EXECUTE FUNCTION f()`, as the migrations write it.
    private static func madeTrigger(_ words: [String], statement: String) -> MadeTrigger? {
        guard words.count > 4, let on = words.firstIndex(of: "ON"), on + 1 < words.count,
              let each = words.firstIndex(of: "EACH"), each + 1 < words.count,
              let function = words.firstIndex(of: "FUNCTION"), function + 1 < words.count else { return nil }
        let bits = ["ROW": 1, "BEFORE": 2, "INSERT": 4, "DELETE": 8, "UPDATE": 16, "TRUNCATE": 32]
        let type = (words[3..<on] + [words[each + 1]]).reduce(0) { $0 | (bits[$1] ?? 0) }
        return MadeTrigger(table: words[on + 1], type: type, function: String(words[function + 1].prefix { $0 != "(" }), statement: statement)
    }

    /// What a trigger of `type` refuses, in words.
    private static func refusal(_ type: Int) -> String {
        if type & 4 != 0 { return "new events that leave a gap in seq" }
        let operations = [(16, "UPDATE"), (8, "DELETE"), (32, "TRUNCATE")].filter { type & $0.0 != 0 }.map(\.1)
        return operations.joined(separator: " and ")
    }

    /// The guards that are not as this build's migrations make them; nil when a newer gtio's
    /// migrations went further (such a database is refused on opening before this).
    public func guardFindings() throws -> [LogGuardFinding]? {
        try read { session in
            try (PostgresSchema.applied(session) ?? 0) > PostgresSchema.current ? nil : Self.guardFindings(session)
        }
    }

    /// Makes each guard as the migrations make it again, in one transaction that holds the
    /// log's lock: the functions first (a changed body, or one dropped with its triggers), then
    /// each trigger enabled, made again or dropped. Only the tables' owner may.
    public func restoreGuards() throws -> [LogGuardFinding] {
        do {
            return try makeGuardsAgain()
        } catch StoreError.permissionDenied(let path, let reason) {
            throw StoreError.ownerOnly(path: path, what: "make the log's guards again", reason: reason)
        }
    }

    private func makeGuardsAgain() throws -> [LogGuardFinding] {
        try write(.log) { session in
            let findings = try Self.guardFindings(session)
            let made = Self.madeGuards
            let remade = Set(findings.filter { $0.problem != .foreign && $0.problem != .disabled }.compactMap { made.triggers[$0.name]?.function })
            for function in remade.sorted() { try session.execute(made.functions[function]?.statement ?? "") }
            for finding in findings {
                let name = Self.quoted(finding.name), table = Self.quoted(finding.table)
                switch finding.problem {
                case .disabled:
                    try session.execute("ALTER TABLE \(table) ENABLE TRIGGER \(name)")
                case .foreign:
                    try session.execute("DROP TRIGGER \(name) ON \(table)")
                case .missing, .changed, .functionChanged:
                    guard let trigger = made.triggers[finding.name] else { continue }
                    try session.execute("DROP TRIGGER IF EXISTS \(name) ON \(table)")
                    try session.execute(trigger.statement)
                }
            }
            return findings
        }
    }

    /// The triggers on the log's tables against those the migrations make, by table and name.
    private static func guardFindings(_ session: PostgresSession) throws -> [LogGuardFinding] {
        let tables = PostgresRoles.ownersTables.map { "'\($0)'" }.joined(separator: ", ")
        let rows = try session.rows("""
            SELECT t.tgname::text, c.relname::text, t.tgenabled::text, t.tgtype::int, p.proname::text, p.prosrc
            FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE NOT t.tgisinternal AND c.relname IN (\(tables)) AND pg_table_is_visible(c.oid)
            """)
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }
        let made = madeGuards
        var findings: [LogGuardFinding] = []
        var seen = Set<String>()
        for row in rows {
            let name = row[0].string ?? "", table = row[1].string ?? ""
            guard let trigger = made.triggers[name], trigger.table == table else {
                findings.append(LogGuardFinding(name: name, table: table, problem: .foreign))
                continue
            }
            seen.insert(name)
            let refuses = refusal(trigger.type)
            let function = row[4].string ?? ""
            if Int(row[3].int64 ?? 0) != trigger.type || function != trigger.function {
                findings.append(LogGuardFinding(name: name, table: table, problem: .changed, refuses: refuses))
            } else if words(row[5].string ?? "") != words(made.functions[function]?.body ?? "") {
                findings.append(LogGuardFinding(name: name, table: table, problem: .functionChanged(function), refuses: refuses))
            } else if row[2].string != "O" && row[2].string != "A" {
                findings.append(LogGuardFinding(name: name, table: table, problem: .disabled, refuses: refuses))
            }
        }
        for (name, trigger) in made.triggers where !seen.contains(name) {
            findings.append(LogGuardFinding(name: name, table: trigger.table, problem: .missing, refuses: refusal(trigger.type)))
        }
        return findings.sorted { ($0.table, $0.name) < ($1.table, $1.name) }
    }

    /// `name` as an SQL identifier, quoted.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
