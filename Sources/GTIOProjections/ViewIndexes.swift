import Foundation
import GTIOCatalog

/// Figures derived once per view and shared by its queries, computed on first use.
/// A class so a `ReadModels` value can fill it lazily; every access holds `lock`, which is not
/// reentrant: a `compute` closure must not touch another index (take that one first).
final class ViewIndexes: @unchecked Sendable {
    private let lock = NSLock()
    private var eligible: [CommunityState.Post]?
    private var suggestable: SuggestableAuthors?
    /// The head of each tab's ranking computed so far, and whether it is the whole ranking.
    private var rankings: [LooksTab: (looks: [Look], complete: Bool)] = [:]

    /// The first `count` looks of `tab` (all when nil): from the cached head when it is long
    /// enough, else from `compute(count)`, whose answer is kept for the next query.
    func ranking(_ tab: LooksTab, count: Int?, _ compute: (Int?) -> (looks: [Look], complete: Bool)) -> [Look] {
        withLock {
            if let cached = rankings[tab], cached.complete || (count.map { cached.looks.count >= $0 } ?? false) {
                return count.map { Array(cached.looks.prefix($0)) } ?? cached.looks
            }
            let computed = compute(count)
            rankings[tab] = computed
            return count.map { Array(computed.looks.prefix($0)) } ?? computed.looks
        }
    }

    func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Posts that may be ranked (live, not hidden, author public, created by now).
    func eligiblePosts(_ compute: () -> [CommunityState.Post]) -> [CommunityState.Post] {
        withLock {
            if let eligible { return eligible }
            let computed = compute()
            eligible = computed
            return computed
        }
    }

    func authors(_ compute: () -> SuggestableAuthors) -> SuggestableAuthors {
        withLock {
            if let suggestable { return suggestable }
            let computed = compute()
            suggestable = computed
            return computed
        }
    }
}
