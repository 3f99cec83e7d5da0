import Foundation
import GTIOTestSupport
import Testing

/// `--help` of every command, pinned: a change to an option, its help or the command list shows
/// up as a diff of these files. `GTIO_RECORD_GOLDEN=1 swift test --filter HelpSnapshotTests`
/// writes them again (read the diff before committing).
@Suite struct HelpSnapshotTests {
    static let commands = [
        "", "ingest", "status", "events", "event", "quarantine", "demo", "catalog", "looks", "verdict", "verdicts",
        "followers", "following", "suggest", "flags", "stats", "funnel", "retention", "report", "anomalies", "rebuild",
        "post", "user", "run", "resolve", "item", "decisions", "verify", "keys", "anchor", "sql", "serve",
        "products", "product", "places", "prices", "flaggers", "trend", "breakdown", "top", "paths", "insight",
        "project", "copy", "pg", "pg roles",
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")

    @Test(arguments: commands) func helpIsAsRecorded(command: String) throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        // A fixed width: ArgumentParser wraps help to the terminal's.
        let result = try GTIOBinary.run(arguments, environment: ["COLUMNS": "100"])
        #expect(result.status == 0)
        let file = Self.folder.appendingPathComponent((command.isEmpty ? "gtio" : command.replacingOccurrences(of: " ", with: "-")) + ".txt")
        if ProcessInfo.processInfo.environment["GTIO_RECORD_GOLDEN"] == "1" {
            try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        #expect(result.stdout == recorded, "gtio \(arguments.joined(separator: " ")) differs from Help/\(file.lastPathComponent)")
    }

    /// docs/COMMANDS.md tells shell users to install these: each shell's script offers every command.
    @Test(arguments: ["bash", "zsh", "fish"]) func completionScriptsNameEveryCommand(shell: String) throws {
        let result = try GTIOBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        // Words of letters, digits and `-`, as commands are spelt; `_` parts them (bash names `_gtio_ingest`).
        let words = Set(result.stdout.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
        let missing = Self.commands.filter { !$0.isEmpty && !$0.contains(" ") && !words.contains($0) }
        #expect(missing.isEmpty, "\(shell): \(missing)")
    }
}
