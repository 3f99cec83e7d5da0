import ArgumentParser
import Foundation

/// Refuses a single-valued option or flag given twice (`trend --interval week --interval day`).
///
/// swift-argument-parser keeps the last value without a word, so a script that repeats an option
/// by mistake would get an answer to a question it did not ask. Options that take a list
/// (`--where`) may repeat. The command's own declaration says which do: its `--help` dump,
/// read only when some option word does repeat, so that an ordinary command pays nothing.
enum OptionRepetition {
    /// Throws bad usage when `words` give a non-repeating option of `command` (or of the root
    /// command, whose options every command line may carry) more than once.
    static func check(_ words: [String], parsed command: ParsableCommand.Type) throws {
        var seen: Set<String> = [], repeated: [String] = []
        for word in words {
            if word == "--" { break }
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            if !seen.insert(name).inserted, !repeated.contains(name) { repeated.append(name) }
        }
        guard !repeated.isEmpty else { return }
        let declared = repeating(in: command)
        let root = command == GTIOCommand.self ? declared : repeating(in: GTIOCommand.self)
        for name in repeated {
            // Unknown names are the parser's to refuse, with its did-you-mean.
            guard let mayRepeat = declared[name] ?? root[name] else { continue }
            if !mayRepeat {
                throw ConsoleError.badArgument("--\(name) is given more than once; give it once")
            }
        }
    }

    /// Each long name `command` declares, and whether it may be given more than once.
    private static func repeating(in command: ParsableCommand.Type) -> [String: Bool] {
        guard let data = command._dumpHelp().data(using: .utf8),
              let dump = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let info = dump["command"] as? [String: Any],
              let arguments = info["arguments"] as? [[String: Any]]
        else { return [:] }
        var result: [String: Bool] = [:]
        for argument in arguments {
            let mayRepeat = argument["isRepeating"] as? Bool ?? false
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let text = name["name"] as? String { result[text] = mayRepeat }
            }
        }
        return result
    }
}
