import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GTIOIngest
import GTIOStore

/// `gtio`: the GTIO console's one executable.
public struct GTIOCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gtio",
        abstract: "GTIO Console: the event log, read models and reports of GTIO.",
        discussion: """
            Exit codes: 0 success; 1 failure; 2 bad usage; 3 ingest finished but some input was \
            rejected (quarantined). The store is $GTIO_STORE, or \(StoreOptions.defaultPath) here, \
            unless --store names one.
            """,
        subcommands: [
            IngestCommand.self, StatusCommand.self, EventsCommand.self, EventCommand.self,
            QuarantineCommand.self, DemoCommand.self, CatalogCommand.self,
            LooksCommand.self, VerdictCommand.self, VerdictsCommand.self, FollowersCommand.self, FollowingCommand.self,
            SuggestCommand.self, FlagsCommand.self, StatsCommand.self, AnomaliesCommand.self, RebuildCommand.self,
            PostCommand.self, UserCommand.self,
        ])

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customShort("c"), help: ArgumentHelp("Run one console command and exit.", valueName: "command"))
    var command: String?

    public init() {}

    public mutating func run() throws {
        guard let command else {
            print(Self.helpMessage())
            return
        }
        var words = try CommandLineWords.split(command)
        guard !words.isEmpty else { throw ConsoleError.badArgument("-c: the command is empty (try -c 'status')") }
        if storeOptions.store != nil, !words.contains("--store") {
            words += ["--store", storeOptions.path]
        }
        var parsed = try Self.parseAsRoot(words)
        if parsed is GTIOCommand {
            throw ConsoleError.badArgument("-c: \"\(command)\" names no command (try -c 'status'; gtio --help lists them)")
        }
        try parsed.run()
    }

    /// Runs the console with `arguments` and returns the process exit code of CONSOLE.md.
    public static func exitCode(running arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as ConsoleError {
            Terminal.writeError("gtio: \(error)\n")
            return error.exitCode
        } catch let error as StoreError {
            Terminal.writeError("gtio: \(error)\n")
            return error.isUsageError ? 2 : 1
        } catch let error as IngestError {
            Terminal.writeError("gtio: \(error)\n")
            return error.isUsageError ? 2 : 1
        } catch let error as CommandLineWords.SplitError {
            Terminal.writeError("gtio: \(error)\n")
            return 2
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            if !message.isEmpty { Terminal.writeError(message + "\n") }
            // ArgumentParser's usage errors exit 64; CONSOLE.md says bad usage is 2.
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    /// The executable's entry point.
    public static func runAsMain() -> Never {
        Glibc.exit(exitCode(running: Array(CommandLine.arguments.dropFirst())))
    }
}
