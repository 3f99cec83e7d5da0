import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GTIOIngest
import GTIOReports
import GTIOStore
import GTIOTables

/// `gtio`: the GTIO console's one executable.
public struct GTIOCommand: ParsableCommand {
    /// This build's version, printed by `gtio --version`.
    public static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "gtio",
        abstract: "GTIO Console: the event log, read models and reports of GTIO.",
        discussion: """
            Exit codes: 0 success; 1 failure; 2 bad usage; 3 ingest finished but some input was \
            rejected (quarantined). The store is $GTIO_STORE, or \(StoreOptions.defaultPath) here, \
            unless --store names one.
            """,
        version: version,
        subcommands: [
            IngestCommand.self, StatusCommand.self, EventsCommand.self, EventCommand.self,
            QuarantineCommand.self, DemoCommand.self, CatalogCommand.self,
            LooksCommand.self, VerdictCommand.self, VerdictsCommand.self, FollowersCommand.self, FollowingCommand.self,
            SuggestCommand.self, FlagsCommand.self, StatsCommand.self, FunnelCommand.self, RetentionCommand.self, ReportCommand.self, AnomaliesCommand.self, RebuildCommand.self,
            PostCommand.self, UserCommand.self, RunCommand.self, ResolveCommand.self,
            ItemCommand.self, DecisionsCommand.self, ProductsCommand.self, ProductCommand.self, PlacesCommand.self,
            PricesCommand.self, FlaggersCommand.self, TrendCommand.self, BreakdownCommand.self, TopCommand.self,
            PathsCommand.self, InsightCommand.self, VerifyCommand.self, KeysCommand.self, AnchorCommand.self, SQLCommand.self, ServeCommand.self, ProjectCommand.self, CopyCommand.self, PostgresCommand.self,
        ])

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customShort("c"), help: ArgumentHelp("Run one console command and exit.", valueName: "command"))
    var command: String?

    @Flag(help: "With commands on standard input: go on after a failing command (exit 1 at the end).")
    var keepGoing = false

    @Option(help: ArgumentHelp("The REPL's history file (default $GTIO_HISTORY, else ~/.gtio_history).", valueName: "file"))
    var history: String?

    public init() {}

    /// No arguments: the REPL on a terminal, else the commands on standard input.
    public mutating func run() throws {
        let code: Int32
        if let command {
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConsoleError.badArgument("-c: the command is empty (try -c 'status')")
            }
            let session = ConsoleSession(storeOptions: storeOptions, interactive: false)
            switch session.execute(command) {
            case .failure(let failed): code = failed
            case .success, .quit: code = 0
            }
        } else if Terminal.standardInputIsTerminal {
            code = ConsoleLoop.interactive(storeOptions: storeOptions, historyPath: history ?? ConsoleLoop.defaultHistoryPath)
        } else {
            code = ConsoleLoop.script(ConsoleLoop.standardInputLines(), storeOptions: storeOptions, keepGoing: keepGoing)
        }
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs the console with `arguments` and returns the process exit code of CONSOLE.md.
    public static func exitCode(running arguments: [String]) -> Int32 {
        // Errors quote what was typed or read from a file (`gtio run`, a piped script): its
        // control characters are written out rather than sent to the terminal to act on.
        func report(_ message: String) { Terminal.writeError(message.escapingControls(keepingLineBreaks: true) + "\n") }
        var parsed: ParsableCommand.Type?
        do {
            var command = try parse(arguments)
            parsed = type(of: command)
            try command.run()
            return 0
        } catch let error as ValidationError where parsed != nil {
            // Thrown by a command's `run`, where swift-argument-parser would show the root
            // command's usage: the usage shown is the command's own, as for its `validate`.
            report(usageError(error.message, of: parsed!))
            return 2
        } catch let error as ConsoleError {
            report("gtio: \(error)")
            return error.exitCode
        } catch let error as StoreError {
            report("gtio: \(error)")
            return error.isUsageError ? 2 : 1
        } catch let error as IngestError {
            report("gtio: \(error)")
            return error.isUsageError ? 2 : 1
        } catch let error as ReportError {
            report("gtio: \(error)")
            return error.isUsageError ? 2 : 1
        } catch let error as SigningKeyError {
            // A key or anchor that cannot be used is always the person's to fix.
            report("gtio: \(error)")
            return 2
        } catch let error as CommandLineWords.SplitError {
            report("gtio: \(error)")
            return 2
        } catch {
            let code = exitCode(for: error)
            var message = fullMessage(for: error)
            if arguments.first == SQLCommand.configuration.commandName, let hint = SQLCommand.hint(forParseError: message) {
                message += "\n" + hint
            }
            if code == .success {
                Terminal.line(message)
                return 0
            }
            if !message.isEmpty { report(message) }
            // ArgumentParser's usage errors exit 64; CONSOLE.md says bad usage is 2.
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    /// `message` with the usage of `command` and where its help is, as swift-argument-parser
    /// words a usage error.
    static func usageError(_ message: String, of command: ParsableCommand.Type) -> String {
        let path = commandPath(to: command) ?? ["gtio"]
        return "Error: \(message)\nUsage: \(usageString(for: command))\n  See '\(path.joined(separator: " ")) --help' for more information."
    }

    /// The names from `gtio` down to `command` (`["gtio", "keys", "add"]`), nil when it is not
    /// among the subcommands of `root`.
    static func commandPath(to command: ParsableCommand.Type, from root: ParsableCommand.Type = GTIOCommand.self) -> [String]? {
        let name = root.configuration.commandName ?? "gtio"
        if root == command { return [name] }
        for subcommand in root.configuration.subcommands {
            if let below = commandPath(to: command, from: subcommand) { return [name] + below }
        }
        return nil
    }

    /// The command `words` ask for, refusing what swift-argument-parser lets through: a
    /// single-valued option given twice.
    static func parse(_ words: [String]) throws -> ParsableCommand {
        let command = try parseAsRoot(words)
        try OptionRepetition.check(words, parsed: type(of: command))
        return command
    }

    /// The executable's entry point.
    public static func runAsMain() -> Never {
        // Past a file size limit (`ulimit -f`) a write then fails as on a full disk, and is
        // answered as one, rather than the signal ending the process in the middle of a commit.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        StoreOptions.beginConnecting(for: arguments)
        let code = exitCode(running: arguments)
        StoreOptions.endConnectionBegun()
        if LogScanCounter.isReported {
            Terminal.writeError("gtio: events scanned: \(LogScanCounter.events)\n")
            Terminal.writeError("gtio: fold states read: \(LogScanCounter.foldStates)\n")
        }
        Foundation.exit(code)
    }
}
