import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GTIOStore

/// Long answers on a terminal go through a pager (`$PAGER`, else `less -FRSX`), as psql does.
enum Pager {
    /// Whether `text` is longer than the terminal: never when the terminal does not say how
    /// tall it is (a pseudo-terminal a script opened), as a pager would then wait for keys
    /// after a guessed screenful.
    static func shouldPage(_ text: String) -> Bool {
        guard Terminal.standardOutputIsTerminal, let rows = Terminal.height else { return false }
        var lines = 0
        for character in text.utf8 where character == UInt8(ascii: "\n") {
            lines += 1
            if lines >= rows - 1 { return true }
        }
        return false
    }

    /// Shows `text` through the pager and waits for it to end; writes `text` to the screen when
    /// the pager cannot be started (its command not found, say).
    ///
    /// The pager is started in the console's own process group, which owns the terminal: one in
    /// a group of its own (as Foundation's `Process` starts its children) is stopped by the
    /// terminal as soon as it sets it up for keys, and the console waits on it for ever.
    static func show(_ text: String) {
        let command = ProcessInfo.processInfo.environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less -FRSX"
        let status = run(command, input: text)
        if status == nil || status == 126 || status == 127 { Terminal.write(text) }
    }

    /// Runs `command` through `/bin/sh` with `input` on its standard input; its exit status, nil
    /// when it could not be started. A pager that quits before reading everything (`q` in
    /// `less`) closes the pipe: what it did not read is dropped, and the console goes on.
    private static func run(_ command: String, input: String) -> Int32? {
        #if canImport(Glibc)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, nil, arguments, environ)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return nil
        }
        // A closed pipe must not end the console: EPIPE instead of SIGPIPE while writing.
        let previous = signal(SIGPIPE, SIG_IGN)
        Array(input.utf8).withUnsafeBytes { _ = DescriptorOutput.writeAll(writeEnd, $0) }
        close(writeEnd)
        signal(SIGPIPE, previous)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        #else
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        do { try process.run() } catch { return nil }
        try? pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
        #endif
    }
}
