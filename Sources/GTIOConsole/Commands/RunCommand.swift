import ArgumentParser
import Foundation

/// `gtio run FILE`: the console commands of a file, one a line, as if typed.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a file of console commands, one a line (# starts a comment).",
        discussion: "Stops at the first failing command with exit code 1, unless --keep-going.")

    @Argument(help: "The file of commands.") var file: String
    @Flag(help: "Go on after a failing command (exit 1 at the end).") var keepGoing = false
    @OptionGroup var storeOptions: StoreOptions
    /// The root command claims `--keep-going` (it has its own, for piped commands) wherever it
    /// is written, so this command reads both.
    @ParentCommand var root: GTIOCommand

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConsoleError.badArgument("run: \(file): no such file (give a file of console commands)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        let code = ConsoleLoop.script(lines, storeOptions: storeOptions, keepGoing: keepGoing || root.keepGoing)
        if code != 0 { throw ExitCode(code) }
    }
}
