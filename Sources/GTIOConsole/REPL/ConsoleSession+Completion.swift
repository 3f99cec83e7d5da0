import GTIOCatalog
import GTIOInsights
import GTIOProjections

extension ConsoleSession {
    /// Candidates for the word being typed after `before`: command names, then sub-arguments,
    /// flags and option values, and ids from the store (users, posts, queued items) by prefix.
    func completions(before: String, word: String) -> [String] {
        let words = before.split(separator: " ").map(String.init)
        guard let first = words.first else { return ConsoleCommandInfo.all.map(\.name) }
        guard let info = ConsoleCommandInfo.named(first) else { return [] }
        if word.hasPrefix("-") { return info.flags }
        switch words.last {
        case "--format": return OutputFormat.allCases.map(\.rawValue)
        case "--type": return EventType.allCases.map(\.rawValue)
        case "--user": return ids(.user, word)
        case "--post": return ids(.post, word)
        case "--author": return ids(.user, word)
        case "--place": return placeNames(word)
        case "--by" where first == "prices": return PriceGrouping.allCases.map(\.rawValue)
        case "--by": return InsightProperty.knownNames + ["props."]
        case "--measure": return ["events", "users", "devices", "sum:", "avg:"]
        case "--interval": return InsightInterval.allCases.map(\.rawValue)
        case "--actor": return InsightActor.allCases.map(\.rawValue)
        case "--where":
            // After PROP= (or PROP!=), the values seen for it.
            if let equals = word.firstIndex(of: "="), let property = try? InsightProperty(String(word[..<equals]).replacingOccurrences(of: "!", with: "")),
               let store = try? storeOptions.openForReading(),
               let values = try? PropertyValues.seen(property, in: InsightReader(store: store)) {
                let head = String(word[...equals])
                return values.map { head + $0 }
            }
            return InsightProperty.knownNames.map { $0 + "=" }
        case "--start", "--return": return EventType.allCases.map(\.rawValue)
        default: break
        }
        // Steps of a funnel are all selectors.
        guard words.count == 1 || (info.argument == .selector && first == "funnel" && !(words.last ?? "").hasPrefix("-")) else { return [] }
        switch info.argument {
        case .tab: return LooksTab.allCases.map(\.rawValue)
        case .user: return ids(.user, word)
        case .post: return ids(.post, word)
        case .item: return ids(.item, word)
        case .product: return ids(.product, word)
        case .selector: return EventType.allCases.map(\.rawValue) + ["*"]
        case .property: return InsightProperty.knownNames
        case .readModel: return ReadModelName.allCases.map(\.rawValue)
        case .command: return ConsoleCommandInfo.all.map(\.name)
        case .format: return OutputFormat.allCases.map(\.rawValue)
        case .onOff: return ["on", "off"]
        case .report: return ["nightly"]
        case .none: return []
        }
    }

    /// Place names that start with `word`.
    private func placeNames(_ word: String) -> [String] {
        guard let store = try? storeOptions.openForReading(), let models = try? StoredReadModels(source: store) else { return [] }
        return (try? models.placeNames(prefix: word)) ?? []
    }

    /// Ids of `kind` that start with `word`, from the store's tables; none when they are not built yet.
    private func ids(_ kind: StoredReadModels.IDKind, _ word: String) -> [String] {
        guard let store = try? storeOptions.openForReading(), let models = try? StoredReadModels(source: store) else { return [] }
        return (try? models.ids(kind, prefix: word)) ?? []
    }
}
