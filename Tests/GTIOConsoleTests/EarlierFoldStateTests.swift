import Foundation
import GTIOTestSupport
import Testing

/// The fold state kept from before the newest day, as a cron job ingesting a day at a time
/// meets it: `status` shows it, and the nightly report of the day before the newest starts there
/// rather than at seq 1, and writes what a report of the same log without it writes.
@Suite struct EarlierFoldStateTests {
    let folder = TemporaryDirectory()

    @Test(arguments: StoreBackend.all)
    func theNightlyReportOfTheDayBeforeStartsFromTheStateKeptBeforeTheNewestDay(_ backend: StoreBackend) throws {
        let demo = folder.file("demo.jsonl")
        #expect(try GTIOBinary.run(["demo", "--events", "30000", "--seed", "5", "--out", demo]).status == 0)
        // The demo's four days: 04-22 (a few events), 04-23, 04-24, 04-25.
        let lines = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").map(String.init)
        func day(_ line: String) -> String { line.firstMatch(of: /"at":"(\d{4}-\d\d-\d\d)/).map { String($0.1) } ?? "" }
        let store = try backend.location(in: folder)
        func ingest(_ name: String, days: Set<String>) throws -> Int {
            let file = folder.write(name, lines.filter { days.contains(day($0)) }.joined(separator: "\n") + "\n")
            let result = try GTIOBinary.run(["ingest", file, "--store", store, "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(result.stdout.firstMatch(of: /"last_seq":(\d+)/).flatMap { Int($0.1) }, "\(result.stdout)")
        }
        // The first build saves a state; the next ingest folds nothing past it and saves none;
        // the third folds the day before past it (over 10,000 events) and saves its own, of a
        // later day, keeping the first as the earlier state.
        let first = try ingest("first.jsonl", days: ["2012-04-22", "2012-04-23"])
        _ = try ingest("second.jsonl", days: ["2012-04-24"])
        let last = try ingest("third.jsonl", days: ["2012-04-25"])
        let status = try GTIOBinary.run(["status", "--format", "json", "--store", store]).stdout
        #expect(status.contains("\"fold_state_seq\":\(last),\"earlier_fold_state_seq\":\(first),"), "\(status)")
        let text = try GTIOBinary.run(["status", "--store", store]).stdout
        // The demo writes times with offsets: its "day" above is local, the newest event's is UTC.
        #expect(text.contains("fold state   also at seq \(first) (newest event 2012-04-2"), "\(text)")
        // `rebuild --check` compares both with the same fold of the log, stopped at each one's seq.
        let check = try GTIOBinary.run(["rebuild", "--check", "--store", store])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains(
            "earlier fold state (seq \(first)): identical to a rebuild\nfold state (seq \(last)): identical to a rebuild\n"),
            "\(check.stdout)")

        let report = try GTIOBinary.run(
            ["report", "nightly", "--date", "2012-04-24", "--store", store, "--out", folder.file("daily")],
            environment: ["GTIO_SCAN_STATS": "1"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("gtio: fold states read: 1"), "\(report.stderr)")
        let scanned = try #require(report.stderr.firstMatch(of: /events scanned: (\d+)/).flatMap { Int($0.1) })
        #expect(scanned > 0 && scanned <= last - first, "\(report.stderr)")

        // The same log copied into a new store keeps one state, at its end: its report folds from seq 1.
        let elsewhere = TemporaryDirectory()
        let whole = try backend.location(in: elsewhere)
        let copied = try GTIOBinary.run(["copy", "--from", store, "--to", whole])
        #expect(copied.status == 0, "\(copied.stderr)")
        let straight = try GTIOBinary.run(
            ["report", "nightly", "--date", "2012-04-24", "--store", whole, "--out", folder.file("whole")],
            environment: ["GTIO_SCAN_STATS": "1"])
        #expect(straight.stderr.contains("gtio: fold states read: 0"), "\(straight.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("daily/2012-04-24")).sorted()
        #expect(files.count > 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("whole/2012-04-24")).sorted() == files)
        for name in files {
            let daily = try Data(contentsOf: URL(fileURLWithPath: folder.file("daily/2012-04-24/\(name)")))
            let reference = try Data(contentsOf: URL(fileURLWithPath: folder.file("whole/2012-04-24/\(name)")))
            #expect(daily == reference, "\(name)")
        }
    }
}
