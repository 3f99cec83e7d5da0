import ArgumentParser
import Foundation
import GTIOProjections
import GTIOStore
import GTIOTables

/// `rebuild [NAME] [--check]`: recompute read models from seq 1.
struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recompute read models from the log and swap them in atomically.",
        discussion: """
            Read models: \(Self.modelNames). With --check, \
            nothing is swapped: each live model is compared row by row with a fresh rebuild up to its \
            checkpoint, and so (when no model is named) is each saved fold state (the one writers \
            continue from, and the earlier one as-of views start from); the differences are listed \
            (exit 1 when there are any).
            """)

    /// The read models' names, comma-separated. Joined by hand: every process builds this
    /// command's configuration (swift-argument-parser reads all of them), and the generic
    /// `joined(separator:)` looked its types' conformances up first (~0.3 ms of a one-shot query).
    static var modelNames: String {
        var names = ""
        for model in ReadModelName.allCases { names += (names.isEmpty ? "" : ", ") + model.rawValue }
        return names
    }

    @Argument(help: ArgumentHelp("One read model; all when omitted.", valueName: "name")) var name: String?
    @Flag(help: "Compare with the live read models instead of replacing them.") var check = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let name, ReadModelName(rawValue: name) == nil {
            throw ValidationError(
                "unknown read model \"\(name)\" (expected one of \(Self.modelNames))")
        }
    }

    func run() throws {
        let names = name.map { [ReadModelName(rawValue: $0)!] } ?? ReadModelName.allCases
        let store = try storeOptions.openExisting()
        let engine = ReadModelEngine(store: store)
        if check {
            // The state writers continue from must be what folding the log gives, or every
            // later increment would carry its error; the earlier one, or as-of views that start
            // from it would. Checked with all models, not with one named.
            let (models, states) = try engine.check(names, foldStates: name == nil)
            var findings = models.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, $0.value) }
            for (index, (seq, differences)) in states.enumerated() {
                findings.append(("\(index < states.count - 1 ? "earlier fold state" : "fold state") (seq \(seq))", differences))
            }
            var differing = 0
            for (what, differences) in findings {
                if differences.isEmpty {
                    Terminal.line("\(what): identical to a rebuild")
                } else {
                    differing += 1
                    Terminal.line("\(what): \(differences.count) difference\(differences.count == 1 ? "" : "s")")
                    differences.forEach { Terminal.line("  " + $0.escapingControls) }
                }
            }
            if differing > 0 { throw ExitCode.failure }
            return
        }
        // Tables of another definition are dropped first: they are rebuilt below anyway. Tables
        // SQLite finds damaged are dropped too: they hold nothing the log does not.
        do {
            try ReadModelSchema.migrate(store)
        } catch StoreError.damaged {
            try discardDamagedTables(store)
        }
        let total = try store.lastSeq()
        let bar = ProgressBar()
        let started = Date()
        let models = try engine.fold { done in
            bar.update(done: Int64(done), total: total, count: done, unit: "events")
        }
        bar.finish()
        let folded = Date().timeIntervalSince(started)
        let written: [ReadModelName: Int]
        do {
            written = try engine.write(names, models)
        } catch StoreError.damaged {
            // Writing replaces every row, so it meets any damaged page of the tables.
            try discardDamagedTables(store)
            written = try engine.write(ReadModelName.allCases, models)
        }
        store.settle()
        let elapsed = Date().timeIntervalSince(started)
        for model in names {
            Terminal.line("\(model.rawValue): \(written[model] ?? 0) rows at seq \(models.state.lastSeq)")
        }
        // The rate counts the whole job, fold and table writes, as the read-models issue measures it.
        Terminal.line(String(format: "rebuilt %d read model%@ from %d events in %.2f s (fold %.2f s, tables %.2f s): %.0f events/s",
                     names.count, names.count == 1 ? "" : "s", models.state.eventCount, elapsed, folded, elapsed - folded,
                     Double(models.state.eventCount) / max(elapsed, 0.000_001)))
        BackgroundRelease.release(consume models)
    }

    /// Drops every read-model table after SQLite found one damaged; the caller writes them again.
    private func discardDamagedTables(_ store: any EventStore) throws {
        Terminal.writeError("gtio: the read models' tables are damaged: dropping them to rebuild them from the log\n")
        try store.discardTables(prefix: "rm_")
        try ReadModelSchema.migrate(store)
    }
}
