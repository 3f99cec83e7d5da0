import GTIOCatalog
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import PropertyBased
import Testing
@testable import GTIOProjections

/// Ids that differ in their bytes but not as Swift strings: "é" written as U+00E9 and as "e"
/// followed by U+0301 are canonically equivalent, and `String`'s `==` and hashing take them for
/// one. The rules compare ids exactly, so two such ids are two users, posts or items.
@Suite struct TwinIDTests {
    /// Each pair of the random logs' ids and the two canonically equivalent ids put in their
    /// place, chosen to keep every id's place in byte order (so that ties broken by id stay so).
    static let twins: [(String, String)] = [
        ("ann", "anne\u{301}"), ("bob", "ann\u{E9}"),
        ("p0", "p0e\u{301}"), ("p1", "p0\u{E9}"),
        // Longer than the 16 bytes the key tables hold inline.
        ("p3", "p3-a-rather-long-ide\u{301}"), ("p4", "p3-a-rather-long-id\u{E9}"),
        ("r0", "r0e\u{301}"), ("r1", "r0\u{E9}"),
        ("d0", "d0e\u{301}"), ("d1", "d0\u{E9}"),
        ("pr0", "pr0e\u{301}"), ("pr1", "pr0\u{E9}"),
    ]

    /// `text` with every `from` replaced by `to`, byte for byte.
    static func replacing(_ text: String, _ pairs: [(from: String, to: String)]) -> String {
        var bytes = Array(text.utf8)
        for (from, to) in pairs {
            let needle = Array(from.utf8), replacement = Array(to.utf8)
            var out: [UInt8] = [], index = 0
            while index < bytes.count {
                if bytes[index...].starts(with: needle) {
                    out += replacement
                    index += needle.count
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A log's events with the twins in place of their ids: each quoted id, and each item naming one.
    static func withTwins(_ events: [ValidatedEvent]) -> [ValidatedEvent] {
        let pairs = twins.flatMap { id, twin in
            [(from: "\"\(id)\"", to: "\"\(twin)\""), (from: ":\(id)\"", to: ":\(twin)\"")]
        }
        return events.map { try! EventValidator.validate(replacing($0.original, pairs)).get() }
    }

    /// Every row of every table, its text with the twins' ids put back, in one order.
    static func tables(_ models: ReadModels, twinsBack: Bool) -> [String: [[StoreValue]]] {
        var all: [String: [[StoreValue]]] = [:]
        let back = twins.map { (from: $0.1, to: $0.0) }
        for model in ReadModelName.allCases {
            for (table, rows) in ReadModelTables.rows(of: model, models) {
                all[table] = rows.map { row in
                    row.map { value in
                        guard twinsBack, case .text(let text) = value else { return value }
                        return .text(replacing(text, back))
                    }
                }.sorted { "\($0)" < "\($1)" }
            }
        }
        return all
    }

    @Test func twinIdsAreAsDistinctAsAnyTwoIds() async {
        await propertyCheck(count: 20, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let events = RandomLog.events(seed: seed, count: 300)
            let records = { (events: [ValidatedEvent]) in events.enumerated().map { LogRecord(seq: Int64($0.offset + 1), $0.element) } }
            let plain = LogView.latest.readModels(from: records(events))
            let twinned = LogView.latest.readModels(from: records(Self.withTwins(events)))
            let expected = Self.tables(plain, twinsBack: false), found = Self.tables(twinned, twinsBack: true)
            for table in expected.keys.sorted() {
                #expect(found[table] == expected[table], "\(table), seed \(seed)")
            }
        }
    }

    /// The writers' path: rows rewritten batch by batch, as the events touch them, where twin
    /// ids must each have their rows rewritten.
    @Test func catchingUpALogOfTwinIdsBatchByBatchLeavesTheTablesOfAFold() async {
        await propertyCheck(count: 10, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let events = Self.withTwins(RandomLog.events(seed: seed, count: 300))
            let store = try! SQLiteStore(path: folder.file("log.gtio"))
            let engine = ReadModelEngine(store: store)
            try! RandomLog.append(events, to: store, seed: seed) { _ = try engine.catchUp() }
            let differences = try! engine.check(ReadModelName.allCases).filter { !$0.value.isEmpty }
            let said = differences.map { "\($0.key): \($0.value.prefix(3))" }.joined(separator: "; ")
            #expect(differences.isEmpty, "seed \(seed): \(said)")
        }
    }
}
