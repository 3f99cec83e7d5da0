import GTIOCatalog
import GTIOProjections

extension ConsoleSession {
    /// Candidates for the word being typed after `before`: command names, then sub-arguments,
    /// flags and option values, and ids from the store (users, posts, queued items) by prefix.
    func completions(before: String, word: String) -> [String] {
        let words = before.split(separator: " ").map(String.init)
        guard let first = words.first else { return ConsoleCommandInfo.all.map(\.name) }
        guard let info = ConsoleCommandInfo.named(first) else { return [] }
        if word.hasPrefix("-") { return info.flags }
        let models = ReadModelCache.shared.latest(for: storeOptions.path)
        switch words.last {
        case "--format": return OutputFormat.allCases.map(\.rawValue)
        case "--type": return EventType.allCases.map(\.rawValue)
        case "--user": return users(models)
        case "--post": return posts(models)
        default: break
        }
        guard words.count == 1 else { return [] }
        switch info.argument {
        case .tab: return LooksTab.allCases.map(\.rawValue)
        case .user: return users(models)
        case .post: return posts(models)
        case .item: return models?.moderationQueue().map(\.item) ?? []
        case .readModel: return ReadModelName.allCases.map(\.rawValue)
        case .command: return ConsoleCommandInfo.all.map(\.name)
        case .format: return OutputFormat.allCases.map(\.rawValue)
        case .onOff: return ["on", "off"]
        case .report: return ["nightly"]
        case .none: return []
        }
    }

    private func users(_ models: ReadModels?) -> [String] { (models?.state.knownUsers).map { Array($0).sorted() } ?? [] }
    private func posts(_ models: ReadModels?) -> [String] { models.map { Array($0.state.posts.keys).sorted() } ?? [] }
}
