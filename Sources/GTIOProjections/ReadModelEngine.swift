import GTIOStore

/// Keeps the read-model tables of a store in step with its log.
public struct ReadModelEngine: Sendable {
    public let store: any EventStore

    public init(store: any EventStore) {
        self.store = store
    }

    /// Each read model's checkpoint (0 when never built).
    public func checkpoints() throws -> [ReadModelName: Int64] {
        let stored = try store.checkpoints(named: ReadModelName.allCases.map(\.checkpointName))
        return Dictionary(uniqueKeysWithValues: ReadModelName.allCases.map { ($0, stored[$0.checkpointName] ?? 0) })
    }

    /// Folds the log in `view`, reporting events applied so far to `progress`; `throughSeq` pins
    /// the end of the log read before, so that events appended meanwhile stay out. With
    /// `fromSavedState`, the fold continues from the writers' saved state when every event it
    /// applied is in view, which gives the same models (a rebuild and `--check` start from seq 1).
    public func fold(
        _ view: LogView = .latest, throughSeq: Int64? = nil, fromSavedState: Bool = false, progress: (Int) -> Void = { _ in }
    ) throws -> ReadModels {
        var scope = view.scope
        if let throughSeq { scope.throughSeq = min(scope.throughSeq ?? throughSeq, throughSeq) }
        var state = (fromSavedState ? savedState(within: scope) : nil) ?? CommunityState()
        scope.afterSeq = state.lastSeq
        try Self.fold(store, scope, into: &state, progress: progress)
        if case .asOf(let moment) = view { return ReadModels(state: state, now: moment.milliseconds) }
        return ReadModels(state: state)
    }

    /// Applies the events of `scope` to `state`: a second thread reads and keys them, this one
    /// keys their devices and folds. The fold looks ids up by key only, so it needs just the
    /// ids each chunk adds; the scan's full table (with its index) becomes the state's when the
    /// scan ends.
    static func fold(_ store: any EventLog, _ scope: LogScope, into state: inout CommunityState, progress: (Int) -> Void = { _ in }) throws {
        let scan = KeyedScan(keys: state.keys, users: state.userKeys, columns: \.foldColumns)
        defer {
            state.keys = scan.keys
            state.userKeys = scan.users
        }
        try scan.run(store, scope) { chunk in
            state.keys.adopt(chunk.newIDs)
            state.userKeys.adopt(chunk.newUsers)
            chunk.devices.key(&chunk.events, with: &state.deviceKeys)
            state.apply(chunk.events)
            progress(state.eventCount)
        }
    }

    /// The saved fold state when every event it applied is in `scope`, so that folding on from it
    /// gives what folding from seq 1 would; nil otherwise, or when it does not read back (a writer
    /// says so; a query just folds).
    private func savedState(within scope: LogScope) -> CommunityState? {
        try? store.readTables { tables in
            try FoldSnapshot.load(tables) { header in
                header.seq <= (scope.throughSeq ?? .max) && (header.newestAt ?? .min) <= (scope.atMost ?? .max)
            }
        }
    }

    /// The read models of `view` as tables in memory, answered by the same queries as a store's:
    /// an as-of view folds the log into them, from the saved fold state when it is all in view.
    /// `tables` may leave out those the caller's answers do not read.
    public func scratch(
        _ view: LogView, throughSeq: Int64? = nil, tables: TableChoice = .all, progress: (Int) -> Void = { _ in }
    ) throws -> StoredReadModels {
        let models = try fold(view, throughSeq: throughSeq, fromSavedState: true, progress: progress)
        let scratch = try Self.scratch(models, in: store.scratchTables(), choice: tables)
        // The fold is not needed again: the answers come from the tables.
        BackgroundRelease.release(consume models)
        return scratch
    }

    /// `models` written into `tables` (empty scratch tables), answered by the store's queries;
    /// only the tables of `choice`.
    public static func scratch(_ models: ReadModels, in tables: any TableStore, choice: TableChoice = .all) throws -> StoredReadModels {
        try tables.writeTables { tx in
            try ReadModelSchema.create(tx, choice: choice)
            _ = try ReadModelTables.write(ReadModelName.allCases, models, in: tx, choice: choice)
        }
        return try StoredReadModels(source: tables, now: models.now)
    }

    /// The read models of the whole log, with the tables brought up to date first.
    public func catchUp() throws -> ReadModels {
        try LiveReadModels(store: store).catchUp()
    }

    /// Writes the tables of `names` from `models` (a fold of the log through some seq) in one
    /// transaction, and saves the fold's state for writers to continue from; rows written per model.
    public func write(_ names: [ReadModelName], _ models: ReadModels) throws -> [ReadModelName: Int] {
        try ReadModelSchema.migrate(store)
        return try store.writeTables { tx in
            // The state is encoded while the tables are written: their inserts hold one core
            // and leave the other idle once the rows are built. It is saved after them, so
            // until then it yields to the threads building and inserting rows.
            var encoded: FoldSnapshot.Encoded?
            var written: [ReadModelName: Int] = [:]
            try SideBySide.run({
                ThreadPriority.lowerCallingThread()
                encoded = FoldSnapshot.Encoded(models.state)
            }, {
                written = try ReadModelTables.write(names, models, in: tx)
            })
            // Written whole from a fold: whatever state was saved before goes with the tables.
            try encoded!.save(in: tx, replacingBoth: true)
            return written
        }
    }

    /// Where each live model differs from a fresh fold of the log up to that model's checkpoint.
    public func check(_ names: [ReadModelName]) throws -> [ReadModelName: [String]] {
        try check(names, foldStates: false).models
    }

    /// Where each saved fold state, written out as tables, differs from a fresh fold of the log up
    /// to its seq, the earlier state first; empty when the store keeps none this build can read.
    public func checkFoldStates() throws -> [(seq: Int64, differences: [String])] {
        try check([], foldStates: true).foldStates
    }

    /// `check(_:)` of `names` and, with `foldStates`, `checkFoldStates()`, from one fold of the
    /// log from seq 1 that stops at each seq a comparison needs (the states' seqs, then the
    /// checkpoints), rather than a fold from seq 1 for each: at 20 M events a fold is ~30 s.
    public func check(_ names: [ReadModelName], foldStates: Bool) throws
        -> (models: [ReadModelName: [String]], foldStates: [(seq: Int64, differences: [String])])
    {
        // Tables of another definition cannot be compared row by row: say so for each model.
        // (No saved state of another definition is read either.)
        let version = try store.readTables { try ReadModelSchema.storedVersion($0) }
        if let version, version != ReadModelSchema.version {
            let why = "the tables were written by another definition (version \(version), this gtio's is \(ReadModelSchema.version)); gtio rebuild replaces them"
            return (Dictionary(uniqueKeysWithValues: names.map { ($0, [why]) }), [])
        }
        let marks = try checkpoints()
        let headers = foldStates ? try store.readTables { try FoldSnapshot.headers($0) }.map(\.header) : []
        let stops = Set(names.map { marks[$0] ?? 0 } + headers.map(\.seq)).sorted()
        var models: [ReadModelName: [String]] = [:]
        var states: [(seq: Int64, differences: [String])] = []
        var fresh = CommunityState()
        for seq in stops {
            try Self.fold(store, LogScope(afterSeq: fresh.lastSeq, throughSeq: seq), into: &fresh)
            let folded = ReadModels(state: fresh)
            for header in headers where header.seq == seq { states.append((seq, try differences(ofState: header, from: folded))) }
            for name in names where (marks[name] ?? 0) == seq {
                models[name] = try store.readTables { tables in try ReadModelTables.differences(name, folded, in: tables) }
            }
        }
        return (models, states)
    }

    /// Where the saved state of `header`, written out as tables, differs from `folded` (the log
    /// folded from seq 1 to the state's seq); why it does not read back when it does not.
    private func differences(ofState header: FoldSnapshot.Header, from folded: ReadModels) throws -> [String] {
        let saved: CommunityState
        do {
            guard let loaded = try store.readTables({ tables in try FoldSnapshot.load(tables) { $0 == header } }) else { return [] }
            saved = loaded
        } catch let error as FoldSnapshotError {
            return [error.description]
        }
        let tables = try Self.scratch(ReadModels(state: saved), in: store.scratchTables()).source
        var found: [String] = []
        for name in ReadModelName.allCases {
            found += try tables.readTables { try ReadModelTables.differences(name, folded, in: $0) }
        }
        return found
    }
}
