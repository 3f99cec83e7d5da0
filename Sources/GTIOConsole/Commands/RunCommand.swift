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
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            throw ConsoleError.badArgument("run: \(file): no such file (give a file of console commands)")
        }
        guard !isFolder.boolValue else {
            throw ConsoleError.badArgument("run: \(file) is a folder (give a file of console commands)")
        }
        // Read through a descriptor, not `contents(atPath:)`, which answers nil for what is not a
        // regular file (/dev/null, a named pipe), and waiting on a pipe made non-blocking.
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw ConsoleError.failed("run: \(file) cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        let lines: [String]
        switch ConsoleLoop.scriptLines(reading: handle.fileDescriptor) {
        case .success(let all): lines = all
        case .failure(let error): throw ConsoleError.failed("run: \(file) cannot be read: \(error.reason)")
        }
        let code = ConsoleLoop.script(lines, storeOptions: storeOptions, keepGoing: keepGoing || root.keepGoing)
        if code != 0 { throw ExitCode(code) }
    }
}
