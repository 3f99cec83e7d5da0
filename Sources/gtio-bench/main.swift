// Benchmarks that compare the ingest path with its parts and with SQLite at its rawest.
// Usage: gtio-bench validate FILE | raw-sqlite FILE STORE | read-models STORE | rebuild STORE [RUNS] | fold STORE |
//        fold-state STORE | catch-up STORE TAIL | follow STORE FILE [ROUNDS] | commits STORE FILE [REQUESTS]
// STORE is an SQLite file or, for rebuild, fold and follow, a postgresql:// URL.
import Foundation
import GTIOCatalog
import GTIOIngest
import GTIOProjections
import GTIOStore
import GTIOStorePostgres
import GTIOStoreSQLite

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func lines(of path: String) -> [Data] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("gtio-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(2)
    }
    return data.split(separator: UInt8(ascii: "\n"))
}

/// Parse and validate only: the producer side of ingest.
func validate(_ path: String) {
    let all = lines(of: path)
    let bytes = all.reduce(0) { $0 + $1.count }
    var valid = 0
    let elapsed = seconds {
        for line in all {
            line.withUnsafeBytes { raw in
                if case .success = EventValidator.validate(raw.bindMemory(to: UInt8.self)) { valid += 1 }
            }
        }
    }
    print(String(format: "validate: %d lines (%d valid) in %.2f s: %.0f lines/s, %.1f MB/s",
                 all.count, valid, elapsed, Double(all.count) / elapsed, Double(bytes) / 1e6 / elapsed))
}

/// SQLite's own insert loop on the same lines (`RawInsertYardstick`), for comparison.
func rawSQLite(_ path: String, store: String) {
    let all = lines(of: path)
    guard let elapsed = RawInsertYardstick.run(all, into: store) else {
        FileHandle.standardError.write("gtio-bench: SQLite cannot open \(store)\n".data(using: .utf8)!)
        exit(1)
    }
    print(String(format: "raw SQLite insert loop: %d rows in %.2f s: %.0f rows/s", all.count, elapsed, Double(all.count) / elapsed))
}

/// Milliseconds of each run of `body`, as p50 and p99.
func latencies(_ runs: Int, _ body: (Int) throws -> Void) rethrows -> (p50: Double, p99: Double) {
    var times: [Double] = []
    for run in 0..<runs { times.append(try seconds { try body(run) } * 1000) }
    times.sort()
    return (times[times.count / 2], times[min(times.count - 1, Int(Double(times.count) * 0.99))])
}

/// Read models on a store: full fold and table rebuild, catch-up, queries in one process, as-of.
/// Catch-up: live read models on a store, then `tail` appended (1,000 events) and caught up.
func catchUp(_ path: String, tail: String) throws {
    let store = try SQLiteStore(path: path)
    _ = try ReadModelEngine(store: store).catchUp()
    var live: LiveReadModels!
    let start = try seconds { live = try LiveReadModels(store: store); try live.catchUp() }
    print(String(format: "live read models ready (fold to the checkpoint): %.2f s", start))
    let report = try Ingestor().ingest([.file(path: tail)], into: store)
    let elapsed = try seconds { try live.catchUp() }
    print(String(format: "catch-up after appending %d events: %.1f ms (apply + rows rewritten + checkpoints)",
                 report.total.appended, elapsed * 1000))
}

func readModels(_ path: String) throws {
    let store = try SQLiteStore(path: path)
    let engine = ReadModelEngine(store: store)
    var scanned = 0
    let scanTime = try seconds { try store.scan(LogScope()) { _ in scanned += 1 } }
    print(String(format: "scan alone: %d events in %.2f s (%.0f events/s)", scanned, scanTime, Double(scanned) / scanTime))
    var models: ReadModels!
    let foldTime = try seconds { models = try engine.fold() }
    let events = models.state.eventCount
    let writeTime = try seconds { _ = try engine.write(ReadModelName.allCases, models) }
    print(String(format: "rebuild: fold %d events in %.2f s (%.0f events/s); tables written in %.2f s; total %.0f events/s",
                 events, foldTime, Double(events) / foldTime, writeTime, Double(events) / (foldTime + writeTime)))
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print(String(format: "peak RSS after rebuild: %.0f MB", Double(usage.ru_maxrss) / 1024))

    // The queries as the console runs them: from the tables just written, each its own snapshot.
    let stored = try StoredReadModels(source: store)
    let posts = Array(models.state.posts.keys.sorted().prefix(200))
    let users = models.state.knownUsers.map { ($0, models.followerCount($0)) }.sorted { $0.1 > $1.1 }.prefix(200).map(\.0)
    let figures: [(String, (Int) throws -> Void)] = [
        ("looks popular --limit 20", { _ in _ = try stored.looks(.popular, limit: 20) }),
        ("verdict P", { run in _ = try stored.verdict(post: posts[run % posts.count]) }),
        ("followers U", { run in _ = try stored.followers(of: users[run % 2 == 0 ? 0 : run % users.count]) }),
        ("suggest U", { run in _ = try stored.suggestions(for: users[run % users.count]) }),
        ("flags", { _ in _ = try stored.moderationQueue() }),
        ("stats", { run in _ = try stored.engagement(on: stored.today - Int64(run % 30)) }),
    ]
    for (name, body) in figures {
        let (p50, p99) = try latencies(200, body)
        print(name.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "p50 %7.2f ms  p99 %7.2f ms (200 runs, in process)", p50, p99))
    }
    let last = try store.lastSeq()
    let asOf = try seconds { _ = try engine.scratch(.atSeq(last / 2)).looks(.popular, limit: 20) }
    print(String(format: "as-of query at the log's midpoint (fold + looks popular): %.2f s", asOf))
}

/// Full rebuilds, `runs` times, as `gtio rebuild` does them: fold, then every table in one
/// transaction (the VM's speed swings, so the best run says more about the code than any one).
func rebuilds(_ path: String, runs: Int) throws {
    let store = try openStore(path)
    let engine = ReadModelEngine(store: store)
    for run in 1...runs {
        var models: ReadModels!
        let fold = try seconds { models = try engine.fold() }
        let write = try seconds { _ = try engine.write(ReadModelName.allCases, models) }
        let events = Double(models.state.eventCount)
        print(String(format: "run %d: fold %.2f s (%.0f events/s), tables %.2f s, total %.2f s = %.0f events/s",
                     run, fold, events / fold, write, fold + write, events / (fold + write)))
    }
}

/// The store at `location`: a PostgreSQL URL or an SQLite file.
func openStore(_ location: String) throws -> any EventStore {
    location.hasPrefix("postgresql://")
        ? try PostgresStore(url: location, scratchTables: { try SQLiteStore.memoryTables() })
        : try SQLiteStore(path: location)
}

/// One fold of the whole log and nothing else: a run short and deterministic enough for a
/// profiler (`valgrind --tool=cachegrind` counts the same instructions run after run, where
/// timings on a shared machine swing).
func foldOnce(_ path: String) throws {
    let engine = ReadModelEngine(store: try openStore(path))
    var models: ReadModels!
    let time = try seconds { models = try engine.fold() }
    print(String(format: "fold: %d events in %.2f s", models.state.eventCount, time))
}

/// The writers' saved fold state: how long reading it back (checksum and decoding included)
/// and saving it again take, against folding the log it stands for.
func foldState(_ path: String, loadOnly: Bool = false) throws {
    let store = try SQLiteStore(path: path)
    guard let seq = try store.readTables({ try FoldSnapshot.savedSeq($0) }) else {
        FileHandle.standardError.write("gtio-bench: \(path) has no saved fold state (run gtio ingest or gtio rebuild on it)\n".data(using: .utf8)!)
        exit(1)
    }
    let bytes = try store.readTables { try $0.row("SELECT SUM(length(bytes)) FROM rm_fold_state") }?[0].int ?? 0
    var state: CommunityState!
    let load = try seconds { state = try store.readTables { try FoldSnapshot.load($0, atMost: seq) } }
    guard !loadOnly else {
        print(String(format: "fold state at seq %d: %.1f MB; load %.3f s", seq, Double(bytes) / 1e6, load))
        return
    }
    let save = try seconds { try store.writeTables { try FoldSnapshot.save(state, in: $0) } }
    print(String(format: "fold state at seq %d: %.1f MB; load %.3f s, save %.3f s", seq, Double(bytes) / 1e6, load, save))
}

/// How soon a projector (`gtio project --follow`, running on its own against `location`)
/// has applied a batch of 1,000 events after its commit: `rounds` batches of `file`'s lines,
/// one at a time, each timed from its commit to the read models' lowest checkpoint reaching it.
func followLatency(_ location: String, file: String, rounds: Int) throws {
    let store = try openStore(location)
    let names = ReadModelName.allCases.map(\.checkpointName)
    let all = lines(of: file)
    guard all.count >= rounds * 1000 else {
        FileHandle.standardError.write("gtio-bench: \(file) has \(all.count) lines; \(rounds) rounds need \(rounds * 1000)\n".data(using: .utf8)!)
        exit(2)
    }
    guard try store.isLed(ReadModelFollower.role) else {
        FileHandle.standardError.write("gtio-bench: no projector leads \(location) (start gtio project --follow first)\n".data(using: .utf8)!)
        exit(2)
    }
    var times: [Double] = []
    for round in 0..<rounds {
        var batch = EventBatch(source: "bench-follow")
        for (offset, line) in all[(round * 1000)..<((round + 1) * 1000)].enumerated() {
            line.withUnsafeBytes { _ = batch.add($0.bindMemory(to: UInt8.self), line: round * 1000 + offset + 1) }
        }
        let outcome = try store.append(batch)
        let committed = DispatchTime.now().uptimeNanoseconds
        guard let last = outcome.lastSeq else { continue }
        while (try store.checkpoints(named: names).values.min() ?? 0) < last { usleep(1000) }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - committed) / 1e6)
    }
    times.sort()
    guard !times.isEmpty else { print("follow: nothing new was appended"); return }
    print(String(format: "follow: 1,000 events applied after their commit in p50 %.0f ms, max %.0f ms (%d rounds)",
                 times[times.count / 2], times.last!, times.count))
}

/// The collector's commit path without HTTP: `file`'s lines in requests of 100 events (each
/// validated and given its digests as a request thread does), committed `requests` at a time
/// into a new store at `path` with the server's upkeep beside the writer (checkpoints, sorted
/// runs, the filter of ids). Prints the committing thread's CPU per event, which a profile of
/// `gtio serve` under load cannot give steadily: there it shares two cores with wrk and the
/// request threads.
func commits(_ path: String, file: String, requests: Int) throws {
    guard !FileManager.default.fileExists(atPath: path) else {
        FileHandle.standardError.write("gtio-bench: \(path) exists; commits wants a new store\n".data(using: .utf8)!)
        exit(2)
    }
    let all = lines(of: file)
    var batches: [EventBatch] = []
    for start in stride(from: 0, to: all.count, by: 100) {
        var batch = EventBatch(source: "bench-commits \(start / 100)")
        var chain = EventHashChain()
        for (offset, line) in all[start..<min(start + 100, all.count)].enumerated() {
            if let event = line.withUnsafeBytes({ batch.add($0.bindMemory(to: UInt8.self), line: offset + 1) }) {
                chain.appendDigest(of: event, to: &batch.digests)
            }
        }
        batches.append(batch)
    }
    let store = try SQLiteStore(path: path)
    let upkeep = try store.startUpkeepAside()
    defer { upkeep?.stop() }
    var appended = 0
    var wall = 0.0, cpu = 0.0
    for start in stride(from: 0, to: batches.count, by: requests) {
        let group = batches[start..<min(start + requests, batches.count)]
        let cpuBefore = threadCPUSeconds()
        wall += try seconds {
            let outcomes = try store.write { tx in try group.map { try tx.append($0) } }
            appended += outcomes.reduce(0) { $0 + $1.appended }
        }
        cpu += threadCPUSeconds() - cpuBefore
        upkeep?.committed()
    }
    print(String(format: "commits: %d events in requests of 100, %d a commit: %.2f s, %.0f events/s; committing thread %.2f µs CPU an event",
                 appended, requests, wall, Double(appended) / wall, cpu * 1e6 / Double(appended)))
}

/// CPU seconds the calling thread has used.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (3, "validate"): validate(arguments[2])
case (3, "fold"):
    do { try foldOnce(arguments[2]) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (4, "raw-sqlite"): rawSQLite(arguments[2], store: arguments[3])
case (4, "catch-up"):
    do { try catchUp(arguments[2], tail: arguments[3]) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (3, "rebuild"), (4, "rebuild"):
    do { try rebuilds(arguments[2], runs: arguments.count == 4 ? Int(arguments[3]) ?? 3 : 3) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (4, "follow"), (5, "follow"):
    do { try followLatency(arguments[2], file: arguments[3], rounds: arguments.count == 5 ? Int(arguments[4]) ?? 10 : 10) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (3, "fold-state"):
    do { try foldState(arguments[2]) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (4, "fold-state") where arguments[3] == "--load-only":
    do { try foldState(arguments[2], loadOnly: true) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (4, "commits"), (5, "commits"):
    do { try commits(arguments[2], file: arguments[3], requests: arguments.count == 5 ? Int(arguments[4]) ?? 13 : 13) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
case (3, "read-models"):
    do { try readModels(arguments[2]) } catch { FileHandle.standardError.write("gtio-bench: \(error)\n".data(using: .utf8)!); exit(1) }
default:
    FileHandle.standardError.write("usage: gtio-bench validate FILE | raw-sqlite FILE STORE | read-models STORE | rebuild STORE [RUNS] | fold STORE | fold-state STORE [--load-only] | catch-up STORE TAIL | follow STORE FILE [ROUNDS] | commits STORE FILE [REQUESTS]\n".data(using: .utf8)!)
    exit(2)
}
