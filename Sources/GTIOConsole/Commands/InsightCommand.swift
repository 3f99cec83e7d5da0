import ArgumentParser
import Foundation
import GTIOInsights
import GTIOTables

/// `insight save NAME 'COMMAND'`, `insight run NAME`, `insight list`, `insight delete NAME`:
/// insights kept by name in the store, run again on the log as it stands.
struct InsightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insight",
        abstract: "Save an insight by name, run it again, list or delete the saved ones (kept in the store).",
        discussion: """
            Examples: gtio insight save shares-by-channel 'trend post.shared --by channel --interval week'; \
            gtio insight run shares-by-channel --format csv; gtio insight list. The nightly report shows \
            every saved insight's answer for its day.
            """)
    @Argument(help: ArgumentHelp("save, run, list or delete.", valueName: "action")) var action: String
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(
        "save: NAME and the command; run: NAME and options to add (--format csv …); delete: NAME.", valueName: "words"))
    var words: [String] = []

    func run() throws {
        var rest = words, storeArguments: [String] = []
        // --store may come anywhere (the REPL adds it at the end): it is this command's, not the insight's.
        if let flag = rest.firstIndex(of: "--store"), flag + 1 < rest.count {
            storeArguments = Array(rest[flag...(flag + 1)])
            rest.removeSubrange(flag...(flag + 1))
        }
        let store = try StoreOptions.parse(storeArguments)
        switch action {
        case "list":
            guard rest.isEmpty else { throw ConsoleError.badArgument("insight list takes no arguments") }
            let saved = try SavedInsights.all(in: try store.openForReading())
            Terminal.write(ResultTable(columns: ["name", "command"], rows: saved.map { [.text($0.name), .text($0.command)] }),
                           as: .table, width: Terminal.width)
        case "save":
            guard rest.count >= 2 else { throw ConsoleError.badArgument("usage: insight save NAME 'COMMAND' (e.g. insight save hearts 'trend post.hearted')") }
            let name = rest[0], command = rest.dropFirst().joined(separator: " ")
            try Self.checkName(name)
            if let option = try Self.runnersOption(in: command) {
                throw ConsoleError.badArgument(
                    "a saved insight is the question alone: \(option) is for whoever runs it (insight run \(name) \(option) …)")
            }
            // Asked once now, so that a mistake is found when saving rather than at night.
            _ = try Self.parsed(command, adding: ["--store", store.path]).answer()
            // Analysts share one store's insights: replacing one someone saved is said, with what it was.
            if let replaced = try SavedInsights.save(name, command: command, in: try store.open()), replaced != command {
                Terminal.line("replaced \(name): \(command) (was: \(replaced))")
            } else {
                Terminal.line("saved \(name): \(command)")
            }
        case "run":
            guard let name = rest.first else { throw ConsoleError.badArgument("usage: insight run NAME [--format csv …]") }
            let saved = try SavedInsights.all(in: try store.openForReading())
            guard let command = saved.first(where: { $0.name == name })?.command else {
                let known = saved.map(\.name).joined(separator: ", ")
                throw ConsoleError.notFound("no insight saved as \"\(name)\" (saved: \(known.isEmpty ? "none; insight save NAME 'COMMAND'" : known))")
            }
            if let option = try Self.runnersOption(in: command) {
                throw ConsoleError.badArgument(
                    "insight \(name) was saved with \(option), which only its runner may give: "
                        + "save it again without it (insight save \(name) '…'), then insight run \(name) \(option) …")
            }
            var parsed = try Self.parsed(command, adding: Array(rest.dropFirst()) + ["--store", store.path])
            try parsed.run()
        case "delete":
            guard rest.count == 1 else { throw ConsoleError.badArgument("usage: insight delete NAME") }
            guard try SavedInsights.delete(rest[0], in: try store.openExisting()) else {
                throw ConsoleError.notFound("no insight saved as \"\(rest[0])\"")
            }
            Terminal.line("deleted \(rest[0])")
        default:
            throw ConsoleError.badArgument("insight: unknown action \"\(action)\" (expected save, run, list or delete)")
        }
    }

    /// Options that say where an answer is written or which store it reads: the runner's to give.
    /// Kept in a saved insight, they would let whoever saved it, on a store others share, write
    /// over a file of whoever runs it.
    static let runnersOptions = ["--out", "--chart", "--store"]

    /// The first of `runnersOptions` that `command` gives, if any.
    static func runnersOption(in command: String) throws -> String? {
        let words: [String]
        do { words = try CommandLineWords.split(command) } catch { throw ConsoleError.badArgument("\(error)") }
        return runnersOptions.first { option in words.contains { $0 == option || $0.hasPrefix(option + "=") } }
    }

    /// Names are file-name safe: they name the report's CSV files.
    static func checkName(_ name: String) throws {
        guard SavedInsights.isValidName(name) else {
            throw ConsoleError.badArgument("insight name \"\(name)\": use letters, digits, - and _ (up to 64)")
        }
    }

    /// The saved `command` as an insight command, with `extra` arguments; refuses anything else.
    static func parsed(_ command: String, adding extra: [String]) throws -> any InsightAnswering {
        let words: [String]
        do { words = try CommandLineWords.split(command) } catch { throw ConsoleError.badArgument("\(error)") }
        guard let first = words.first, SavedInsights.commands.contains(first) else {
            throw ConsoleError.badArgument("an insight is one of \(SavedInsights.commands.joined(separator: ", ")); got \"\(command)\"")
        }
        let parsed: ParsableCommand
        do {
            // `extra` may override what was saved (`insight run NAME --format csv`), once.
            parsed = try GTIOCommand.parseAsRoot(words + extra)
            try OptionRepetition.check(words, parsed: type(of: parsed))
            try OptionRepetition.check(extra, parsed: type(of: parsed))
        } catch let error as ConsoleError {
            throw ConsoleError.badArgument("\"\(command)\": \(error)")
        } catch {
            throw ConsoleError.badArgument("\"\(command)\": \(GTIOCommand.fullMessage(for: error).split(separator: "\n").first ?? "")")
        }
        guard let insight = parsed as? any InsightAnswering else {
            throw ConsoleError.badArgument("\"\(command)\" is not an insight")
        }
        return insight
    }
}
