#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GTIOStore

/// Collected output of one command.
final class OutputCapture: @unchecked Sendable {
    // @unchecked: only the REPL's own thread appends and reads.
    private(set) var text = ""
    func append(_ more: String) { text += more }
}

/// What the console knows of where its output goes.
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }
    static var standardInputIsTerminal: Bool { isatty(0) == 1 }

    /// Columns of the terminal on standard output, nil when it is not one.
    static var width: Int? {
        guard standardOutputIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Rows of the terminal on standard output, nil when it is not one or does not say.
    static var height: Int? {
        guard standardOutputIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// Writes `text` to standard error unbuffered.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { _ = DescriptorOutput.writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// While set, answers are collected here instead of written (the REPL pages them, sends them
    /// to a file, or times them). One process-wide place: commands just write.
    nonisolated(unsafe) static var capture: OutputCapture?

    /// Writes `text` and a line end to standard output.
    static func line(_ text: String) { write(text + "\n") }

    /// Writes `text` to standard output (or to the capture).
    static func write(_ text: String) {
        if let capture {
            capture.append(text)
            return
        }
        var text = text
        text.withUTF8 { writeOut(UnsafeRawBufferPointer($0)) }
    }

    /// Writes UTF-8 `bytes` to standard output (or, as text, to the capture).
    static func write(utf8 bytes: [UInt8]) {
        if let capture {
            capture.append(String(decoding: bytes, as: UTF8.self))
            return
        }
        bytes.withUnsafeBufferPointer { writeOut(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes` to standard output, as far as it takes them: a reader that left
    /// (`gtio events | head`) ends the answer quietly, and `outputClosed` says so.
    private static func writeOut(_ bytes: UnsafeRawBufferPointer) {
        if DescriptorOutput.writeAll(1, bytes) != nil { outputClosed = true }
    }

    /// Whether a write to standard output failed (its reader left): an answer written page by
    /// page stops reading pages nobody will see.
    nonisolated(unsafe) private(set) static var outputClosed = false
}
