import Foundation

/// Long answers on a terminal go through a pager (`$PAGER`, else `less -FRSX`), as psql does.
enum Pager {
    static func shouldPage(_ text: String) -> Bool {
        guard Terminal.standardOutputIsTerminal, let rows = Terminal.height else { return false }
        var lines = 0
        for character in text.utf8 where character == UInt8(ascii: "\n") {
            lines += 1
            if lines >= rows - 1 { return true }
        }
        return false
    }

    static func show(_ text: String) {
        let command = ProcessInfo.processInfo.environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less -FRSX"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        do {
            try process.run()
        } catch {
            Terminal.write(text)
            return
        }
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
