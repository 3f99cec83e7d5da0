import CReadline
import Foundation
import GTIOStore

/// GNU readline behind one type: every global of the C library is touched here and nowhere
/// else (its state is process-wide by design, hence `nonisolated(unsafe)`).
enum LineEditor {
    /// Completions for the word being typed: `(line before that word, the word so far) → candidates`.
    nonisolated(unsafe) static var completer: (String, String) -> [String] = { _, _ in [] }
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var historyPath: String?
    /// Whether readline is waiting for a line (Ctrl-C then clears the line, not a query).
    nonisolated(unsafe) private static var reading = false
    static let maximumHistory: Int32 = 2000

    /// Loads the history file (duplicates collapsed, the latest kept), installs completion and Ctrl-C.
    static func setUp(historyPath path: String?) {
        historyPath = path
        gtio_rl_set_name(strdup("gtio"))
        // Ctrl-C is ours: it clears the line at the prompt and interrupts a running query. A
        // blocked mask survives exec, so unblock it here whatever the parent process did.
        gtio_rl_set_catch_signals(0)
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        signal(SIGINT) { _ in
            if LineEditor.reading {
                _ = write(1, "^C\n", 3)
                rl_on_new_line()
                rl_replace_line("", 0)
                rl_redisplay()
            } else {
                Interruption.request()
            }
        }
        gtio_rl_set_word_breaks()
        gtio_rl_set_quote_characters()
        gtio_rl_set_completion { text, start, _ in
            gtio_rl_set_completion_over(1)  // never fall back to file names
            let line = String(cString: gtio_rl_line_buffer())
            let prefix = String(line.utf8.prefix(Int(start))) ?? line
            let typed = text.map { String(cString: $0) } ?? ""
            LineEditor.matches = LineEditor.candidates(
                before: prefix, typed: typed, quote: Character(Unicode.Scalar(UInt8(truncatingIfNeeded: gtio_rl_completion_quote_character()))))
            // `provider=` (or `props.`) is half a word: its value is typed right after it.
            if LineEditor.matches.count == 1, let last = LineEditor.matches[0].last, "=.".contains(last) {
                gtio_rl_set_completion_append(0)
            }
            return rl_completion_matches(text) { _, state in
                guard Int(state) < LineEditor.matches.count else { return nil }
                return strdup(LineEditor.matches[Int(state)])
            }
        }
        using_history()
        if let path {
            read_history(path)
            collapseDuplicates()
            write_history(path)
        }
    }

    /// What readline puts in place of `typed`, the word being completed after `before`: the
    /// completer's candidates, quoted as the console splits words (`CommandLineWords`) when
    /// they hold a space or a quote (an id such as `ann lee`). `quote` is the quote the word
    /// opened with, NUL for none: readline then replaces only what follows it, and closes it.
    static func candidates(before: String, typed: String, quote: Character) -> [String] {
        guard quote != "\0", before.last == quote else {
            return completer(before, typed).filter { $0.hasPrefix(typed) }.map(quotedIfNeeded)
        }
        // The quote may open inside the word (`--where name='Outfit D`): what precedes it
        // belongs to the word the completer is asked about.
        var line = before.dropLast()
        var head = ""
        while let last = line.last, last != " " && last != "\t" {
            head.insert(last, at: head.startIndex)
            line.removeLast()
        }
        let word = head + typed
        return completer(String(line), word)
            .filter { $0.hasPrefix(word) && !$0.contains(quote) }
            .map { candidate in
                let rest = String(candidate.dropFirst(head.count))
                return quote == "\"" ? escapedInDoubleQuotes(rest) : rest
            }
    }

    /// `word` as one word of a command line: as it is when it needs no quoting, else in single
    /// quotes, or double quotes when it holds a single quote.
    static func quotedIfNeeded(_ word: String) -> String {
        guard word.contains(where: { " \t'\"\\[]".contains($0) }) else { return word }
        if !word.contains("'") { return "'\(word)'" }
        return "\"" + escapedInDoubleQuotes(word) + "\""
    }

    /// `text` as it must be written between double quotes, where `\` escapes (CommandLineWords):
    /// each backslash and double quote preceded by a backslash.
    static func escapedInDoubleQuotes(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Reads one line with editing, history and completion; nil on end of input (Ctrl-D).
    static func readLine(prompt: String) -> String? {
        reading = true
        defer { reading = false }
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// Adds `line` to the history, dropping earlier copies, and to the history file at once:
    /// the file is read again first, so lines from sessions running side by side are kept,
    /// and each line is kept once, at its latest place.
    static func remember(_ line: String) {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        removeEntries(equalTo: line)
        add_history(line)
        guard let historyPath else { return }
        let existing = (try? String(contentsOfFile: historyPath, encoding: .utf8)) ?? ""
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { $0 != line }
        lines.append(line)
        let kept = lines.suffix(Int(maximumHistory))
        try? (kept.joined(separator: "\n") + "\n").write(toFile: historyPath, atomically: true, encoding: .utf8)
    }

    /// Blocks Ctrl-C on the calling (background) thread, so it always reaches the readline thread.
    static func keepInterruptsAway() {
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_BLOCK, &interrupt, nil)
    }

    private static func removeEntries(equalTo line: String) {
        var offset = gtio_history_length() - 1
        while offset >= 0 {
            if let entry = history_get(gtio_history_base() + offset), let text = entry.pointee.line,
               String(cString: text) == line, let removed = remove_history(offset) {
                free_history_entry(removed)
            }
            offset -= 1
        }
    }

    /// Keeps only the latest copy of each line, in order.
    private static func collapseDuplicates() {
        var seen = Set<String>()
        var offset = gtio_history_length() - 1
        while offset >= 0 {
            if let entry = history_get(gtio_history_base() + offset), let text = entry.pointee.line {
                if !seen.insert(String(cString: text)).inserted, let removed = remove_history(offset) {
                    free_history_entry(removed)
                }
            }
            offset -= 1
        }
    }
}
