import Foundation

/// Runs a command in a real pseudo-terminal (through util-linux `script`), types into it and
/// reads what the terminal shows, as a person at a keyboard would.
public final class PseudoTerminal: @unchecked Sendable {
    // @unchecked: `output` is only touched while holding `lock`.
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var output = ""

    /// `rows`: the terminal's height (with 120 columns); without it the terminal has no size,
    /// as one that `script` opens with its input from a pipe.
    public init(_ arguments: [String], environment: [String: String] = [:], rows: Int? = nil) throws {
        let command = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // `exec`: without it dash (script's shell when $SHELL is unset, as in CI) stays the
        // parent, takes the Ctrl-C meant for the program and dies of it after the program ends.
        let size = rows.map { "stty rows \($0) cols 120 && " } ?? ""
        process.arguments = ["-qfec", size + "exec " + command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["SHELL"] = "/bin/sh"
        env["TERM"] = "xterm"
        env["GTIO_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = input
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.output += String(decoding: data, as: UTF8.self)
            self.lock.unlock()
        }
        try process.run()
    }

    /// Everything the terminal showed so far.
    public var screen: String {
        lock.lock()
        defer { lock.unlock() }
        return output
    }

    /// Types `text` (use "\r" for Enter, "\t" for Tab, "\u{03}" for Ctrl-C, "\u{04}" for Ctrl-D).
    public func type(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Waits until the screen shows `text` after `offset` characters; false after `timeout` seconds.
    @discardableResult
    public func waitFor(_ text: String, after offset: Int = 0, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // The last look comes after the deadline, for a test thread the busy suite kept off
            // the cores past it.
            let late = Date() >= deadline
            let shown = screen
            if shown.count > offset, shown.dropFirst(offset).contains(text) { return true }
            if late { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until the screen ends with `prompt`: the program is reading a line again. Ctrl-D
    /// typed before that can be lost, since the terminal is in cooked mode between prompts.
    @discardableResult
    public func waitForPrompt(_ prompt: String = "> ", timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            if screen.hasSuffix(prompt) { return true }
            if late { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits for the program to end; its exit status, or nil after `timeout` seconds.
    public func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
