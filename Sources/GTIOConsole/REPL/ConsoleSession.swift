import Foundation
import GTIOCatalog
import GTIOProjections
import GTIOStore
import GTIOTables

/// One console session: its settings, and the commands typed into it (from the REPL, `-c`,
/// `gtio run FILE` or piped standard input, all through `execute`, so all answer alike).
final class ConsoleSession {
    enum Outcome: Equatable {
        case success
        case failure(Int32)
        case quit
    }

    let storeOptions: StoreOptions
    let interactive: Bool
    var format: OutputFormat?
    var timer = false
    /// Every answer goes to this file (appended) until `output off` or `output` alone.
    var outputFile: String?
    /// The next answer goes to this file.
    var onceFile: String?
    /// The as-of moment for every query that takes one, as typed.
    var asOf: String?

    init(storeOptions: StoreOptions, interactive: Bool) {
        self.storeOptions = storeOptions
        self.interactive = interactive
    }

    var prompt: String { asOf.map { "gtio asof \($0)> " } ?? "gtio> " }

    /// Runs one line; errors are reported on standard error and never end the session.
    func execute(_ line: String) -> Outcome {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .success }
        let words: [String]
        do {
            words = try CommandLineWords.split(trimmed)
        } catch {
            return fail("\(error)", code: 2)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        // An answer is captured whole, then paged or sent to a file; one that never ends on its
        // own (`events --follow`) is written as it comes, or nothing would show until Ctrl-C.
        let streams = words.contains("--follow")
        let capture = OutputCapture()
        if !streams { Terminal.capture = capture }
        let outcome = run(words, line: trimmed)
        Terminal.capture = nil
        deliver(capture.text)
        let answers = ConsoleCommandInfo.named(words[0])?.type != nil || words[0] == "sql"
        if timer && answers {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            Terminal.line(String(format: "(%.1f ms)", elapsed))
        }
        Interruption.reset()
        return outcome
    }

    private func fail(_ message: String, code: Int32) -> Outcome {
        Terminal.writeError("gtio: \(message.escapingControls(keepingLineBreaks: true))\n")
        return .failure(code)
    }

    private func run(_ words: [String], line: String) -> Outcome {
        let name = words[0], rest = Array(words.dropFirst())
        switch name {
        case "quit", "exit": return .quit
        case "help": return help(rest.first)
        case "format":
            guard rest.count == 1, let chosen = OutputFormat(rawValue: rest[0]) else {
                return fail("format: expected table, csv, json or markdown (usage: format table|csv|json|markdown)", code: 2)
            }
            format = chosen
        case "timer":
            guard rest.count == 1, rest[0] == "on" || rest[0] == "off" else { return fail("timer: expected on or off (usage: timer on|off)", code: 2) }
            timer = rest[0] == "on"
        case "output":
            guard rest.count <= 1 else { return fail("output: expected one file, or off (or nothing) to go back to the screen", code: 2) }
            // `off` as `asof off` and `timer off` mean it; a file of that name is `output ./off`.
            outputFile = rest.first == "off" ? nil : rest.first
        case "once":
            guard rest.count == 1 else { return fail("once: expected one file (usage: once FILE)", code: 2) }
            onceFile = rest[0]
        case "asof":
            guard rest.count == 1 else { return fail("asof: expected a time or off (usage: asof 2012-05-01T12:00:00Z)", code: 2) }
            if rest[0] == "off" {
                asOf = nil
            } else {
                do { _ = try TimeArgument.parse(rest[0], option: "asof", endOfDay: true) } catch { return fail("\(error)", code: 2) }
                asOf = rest[0]
            }
        case "sql": return sql(String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
        default:
            guard let info = ConsoleCommandInfo.named(name), info.type != nil else {
                let hint = ConsoleCommandInfo.nearest(to: name).map { " (did you mean \($0)?)" } ?? " (help lists the commands)"
                return fail("unknown command \"\(name)\"\(hint)", code: 2)
            }
            var arguments = words
            let asksHelp = rest.contains("--help") || rest.contains("-h")
            if !asksHelp {
                if !rest.contains("--store") { arguments += ["--store", storeOptions.path] }
                if info.takesFormat, let format, !rest.contains("--format") {
                    arguments += ["--format", format.rawValue]
                }
                if info.takesAsOf, let asOf, !rest.contains("--as-of"), !rest.contains("--at-seq") {
                    arguments += ["--as-of", asOf]
                }
            }
            let code = GTIOCommand.exitCode(running: arguments)
            return code == 0 ? .success : .failure(code)
        }
        return .success
    }

    private func help(_ topic: String?) -> Outcome {
        guard let topic else {
            let width = ConsoleCommandInfo.all.map(\.name.count).max() ?? 0
            var text = "Commands (help COMMAND for its usage and an example):\n"
            for info in ConsoleCommandInfo.all { text += "  \(info.name.padding(to: width))  \(info.summary)\n" }
            text += "Queries take --format table|csv|json|markdown, --out FILE, --as-of TIME, --at-seq N; rankings and long lists --limit N, insights --top N (help COMMAND says which).\n"
            Terminal.write(text)
            return .success
        }
        guard let info = ConsoleCommandInfo.named(topic) else {
            let hint = ConsoleCommandInfo.nearest(to: topic).map { " (did you mean \($0)?)" } ?? ""
            return fail("no command \"\(topic)\"\(hint)", code: 2)
        }
        var text = "\(info.name): \(info.summary)\nusage:   \(info.usage)\nexample: \(info.example)\n"
        if !info.flags.isEmpty { text += "options: \(info.flags.joined(separator: " "))\n" }
        Terminal.write(text)
        return .success
    }

    /// A read-only statement on the store: anything that would write is refused before it runs.
    private func sql(_ statementText: String) -> Outcome {
        guard !statementText.isEmpty else { return fail("sql: expected a statement (usage: sql SELECT …)", code: 2) }
        do {
            // Ctrl-C stops the statement (see LineEditor); the row limit and the time limit are
            // those of `gtio sql`.
            let answer = try storeOptions.openForReading().readOnlySQL(statementText, limits: .standard)
            Terminal.write(SQLCommand.table(answer), as: format ?? .table, width: Terminal.width)
            if answer.isTruncated { Terminal.writeError(SQLCommand.truncationNote(answer, allRows: "gtio sql --limit 0") + "\n") }
            return .success
        } catch let error as StoreError {
            return fail(error.description, code: error.isUsageError ? 2 : 1)
        } catch {
            return fail("\(error)", code: 1)
        }
    }

    /// Sends an answer where the settings say: a file, the pager, or the screen.
    private func deliver(_ text: String) {
        guard !text.isEmpty else { return }
        if let file = onceFile ?? outputFile {
            let append = onceFile == nil
            onceFile = nil
            if write(text, to: file, append: append) {
                if interactive { Terminal.writeError("(written to \(file))\n") }
                return
            }
        }
        if interactive, Pager.shouldPage(text) {
            Pager.show(text)
        } else {
            Terminal.write(text)
        }
    }

    private func write(_ text: String, to path: String, append: Bool) -> Bool {
        let manager = FileManager.default
        if !append || !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: Data(text.utf8)) else {
                Terminal.writeError("gtio: cannot write \(path) (does its folder exist?); the answer follows here\n")
                return false
            }
            return true
        }
        // `FileHandle.write(_:)` would end the console on a full disk: the throwing forms say why.
        do {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
            return true
        } catch {
            Terminal.writeError("gtio: cannot add to \(path) (\(error.localizedDescription)); the answer follows here\n")
            return false
        }
    }
}
