/// Splits a command line into words the way a POSIX shell would for simple input:
/// white space separates, single quotes keep everything, double quotes keep all but `\"` and `\\`.
/// A word with an unclosed `[` runs on to its `]`, so that an insight's selector
/// `track[name=Outfit Detail]` needs no quotes.
enum CommandLineWords {
    struct SplitError: Error, CustomStringConvertible {
        var description: String
    }

    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        /// Open brackets of the current word, outside quotes.
        var brackets = 0
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if brackets > 0 {
                    current.append(character)
                } else if inWord {
                    words.append(current); current = ""; inWord = false
                }
            case "[", "]":
                inWord = true
                current.append(character)
                brackets = max(0, brackets + (character == "[" ? 1 : -1))
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" { closed = true; break }
                    current.append(next)
                }
                if !closed { throw SplitError(description: "unterminated ' in: \(line)") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\", let escaped = iterator.next() {
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
                if !closed { throw SplitError(description: "unterminated \" in: \(line)") }
            case "\\":
                inWord = true
                if let escaped = iterator.next() { current.append(escaped) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
