import GTIOCatalog
import GTIOTables

/// `paths [--start SELECTOR] [--depth N] [--top K] [--actor user|device]`: where people go
/// between `/Tracking` screens (INSIGHTS.md §3 and §5).
public struct PathsInsight: Sendable {
    public var start: EventSelector?
    /// Names in a path, at least 2.
    public var depth = 4
    /// Transitions kept per step (0: all).
    public var top = 10
    public var actor: InsightActor = .user
    public var filters: [PropertyFilter] = []

    public init() {}

    public static let columns = ["step", "from", "to", "actors", "paths"]
    /// A gap longer than this ends a session.
    static let sessionGap: Int64 = 30 * 60_000

    private struct Screen {
        var at: Int64
        var seq: Int64
        var name: String
        var startsPath: Bool
    }

    public func run(_ reader: InsightReader, window: InsightWindow) throws -> ResultTable {
        guard depth >= 2 else { throw InsightError.badOption("--depth must be 2 or more, got \(depth)") }
        let startFilters = start?.filters ?? []
        let properties = [InsightProperty.field("name")] + filters.map(\.property) + startFilters.map(\.property)
        var screens: [Int: [Screen]] = [:]
        try reader.read(types: [.track], times: window.times, properties: properties, actor: actor) { event in
            guard let actor = event.actor(actor), let name = event.values[0].first else { return }
            for (index, filter) in filters.enumerated() where !filter.keeps(event.values[1 + index]) { return }
            var starts = start?.takes(event.type) ?? true
            for (index, filter) in startFilters.enumerated() where !filter.keeps(event.values[1 + filters.count + index]) {
                starts = false
            }
            screens[actor, default: []].append(Screen(at: event.at, seq: event.seq, name: name, startsPath: starts))
        }
        // Screen names told apart by their bytes, as values compare as exact text.
        struct Transition: Hashable { var step: Int, from: ExactText, to: ExactText }
        var paths: [Transition: Int] = [:], actors: [Transition: Set<Int>] = [:]
        for (actor, events) in screens {
            let ordered = events.sorted { ($0.at, $0.seq) < ($1.at, $1.seq) }
            var session: [Screen] = []
            func close() {
                defer { session.removeAll() }
                guard let begin = session.firstIndex(where: \.startsPath) else { return }
                let names = session[begin...].prefix(depth).map(\.name)
                for step in 0..<max(0, names.count - 1) {
                    let transition = Transition(step: step + 1, from: ExactText(names[step]), to: ExactText(names[step + 1]))
                    paths[transition, default: 0] += 1
                    actors[transition, default: []].insert(actor)
                }
            }
            for event in ordered {
                if let last = session.last, event.at - last.at > Self.sessionGap { close() }
                // A repeated name is skipped, but it keeps the session going.
                if let last = session.last, last.name.isExactly(event.name) {
                    session[session.count - 1].at = event.at
                    continue
                }
                session.append(event)
            }
            close()
        }
        var rows: [[Cell]] = []
        // The steps some path reached, not 1..<depth: a depth of 2^63 must not count them all.
        for (step, reached) in Dictionary(grouping: paths.keys, by: \.step).sorted(by: { $0.key < $1.key }) {
            var ranked = reached.sorted { a, b in
                if paths[a]! != paths[b]! { return paths[a]! > paths[b]! }
                if a.from != b.from { return a.from.text.unicodeScalars.lexicographicallyPrecedes(b.from.text.unicodeScalars) }
                return a.to.text.unicodeScalars.lexicographicallyPrecedes(b.to.text.unicodeScalars)
            }
            if top > 0, ranked.count > top { ranked.removeSubrange(top...) }
            for transition in ranked {
                rows.append([.integer(Int64(step)), .text(transition.from.text), .text(transition.to.text),
                             .integer(Int64(actors[transition]!.count)), .integer(Int64(paths[transition]!))])
            }
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }
}
