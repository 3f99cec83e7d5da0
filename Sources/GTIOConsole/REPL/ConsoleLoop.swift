import Foundation
import GTIOProjections
import GTIOStore

/// The ways a session is fed: the interactive REPL, or lines from a script or a pipe.
enum ConsoleLoop {
    /// The default history file: `$GTIO_HISTORY`, else `~/.gtio_history`.
    static var defaultHistoryPath: String {
        if let path = ProcessInfo.processInfo.environment["GTIO_HISTORY"], !path.isEmpty { return path }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".gtio_history").path
    }

    /// The readline REPL; returns the exit code when the person leaves.
    static func interactive(storeOptions: StoreOptions, historyPath: String) -> Int32 {
        let session = ConsoleSession(storeOptions: storeOptions, interactive: true)
        let store: any EventStore
        do {
            store = try storeOptions.openForReading()
        } catch {
            Terminal.writeError("gtio: \(error)\n")
            return (error as? StoreError)?.isUsageError == true ? 2 : 1
        }
        LineEditor.setUp(historyPath: historyPath)
        LineEditor.completer = { before, word in session.completions(before: before, word: word) }
        Terminal.line("GTIO Console on \(store.location). Type help for the commands, quit or Ctrl-D to leave.")
        // The prompt comes at once; read models that lag are brought up to date meanwhile, as a
        // writer does (left to a process that leads them).
        Thread {
            LineEditor.keepInterruptsAway()
            if (try? StoredReadModels.current(store)) ?? nil == nil, let writable = try? storeOptions.open() {
                _ = try? ReadModelCache.shared.bringUpToDate(writable, quiet: true)
            }
        }.start()
        while let line = LineEditor.readLine(prompt: session.prompt) {
            LineEditor.remember(line)
            if session.execute(line) == .quit { return 0 }
        }
        Terminal.line("")
        return 0
    }

    /// Runs lines one after another, without prompt or banner; stops at the first error with
    /// exit code 1 unless `keepGoing`.
    static func script(_ lines: [String], storeOptions: StoreOptions, keepGoing: Bool) -> Int32 {
        let session = ConsoleSession(storeOptions: storeOptions, interactive: false)
        var failed = false
        for line in lines {
            switch session.execute(line) {
            case .quit: return failed ? 1 : 0
            case .failure:
                failed = true
                if !keepGoing { return 1 }
            case .success: break
            }
        }
        return failed ? 1 : 0
    }

    /// Every line of standard input, read to its end (`scriptLines`). Not through `readLine`:
    /// on a pipe its parent made non-blocking, "nothing yet" would end the script before its
    /// first line.
    static func standardInputLines() -> [String] {
        switch scriptLines(reading: 0) {
        case .success(let lines): return lines
        case .failure(let error):
            Terminal.writeError("gtio: cannot read standard input: \(error.reason)\n")
            return []
        }
    }

    /// The lines of a script read from `descriptor` to its end: split at `\n`, a `\r` before it
    /// dropped (a file written on Windows), none after the last line end.
    static func scriptLines(reading descriptor: Int32) -> Result<[String], DescriptorInput.ReadError> {
        DescriptorInput.readAll(descriptor).map { bytes in
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            return lines.map { line in
                String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
        }
    }
}
