import Foundation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport

/// A small fixed log for the report tests: 4,000 simulated events (2012-04-22 to 2012-04-25),
/// a broken line for the quarantine, and one event on 2012-04-28, so 2012-04-26 and -27 are empty.
struct ReportFixture {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }
    var out: String { folder.file("Reports") }

    init() throws {
        let demo = folder.file("demo.jsonl")
        _ = try GTIOBinary.run(["demo", "--events", "4000", "--seed", "11", "--out", demo])
        let extra = folder.write("extra.jsonl", """
            {"id":"late-1","type":"track","at":"2012-04-28T09:00:00Z","user":"u-late","data":{"name":"Feed"}}
            {"id":"bad-1","type":"post.voted","at":"2012-04-28T09:01:00Z","user":"u-late","data":{"post":"p","verdict":"maybe"}}

            """)
        let ingest = try GTIOBinary.run(["ingest", demo, extra, "--store", store])
        precondition(ingest.status == 3, "fixture ingest: \(ingest.stderr)")
    }

    /// Runs `gtio report nightly` with `arguments` on the fixture's store.
    func report(_ arguments: [String]) throws -> GTIOBinary.Output {
        try GTIOBinary.run(["report", "nightly", "--store", store] + arguments)
    }

    /// `files` with what differs from one run of the fixture to the next replaced by placeholders:
    /// the temporary folder and the wall-clock times the quarantine recorded.
    func withoutTheMachinesTraces(_ files: [String: Data]) throws -> [String: Data] {
        let recorded = try SQLiteStore(path: store).quarantineEntries().map(\.recorded.description)
        return files.mapValues { data in
            var text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: folder.path, with: "$FIXTURE")
            for moment in recorded { text = text.replacingOccurrences(of: moment, with: "$RECORDED") }
            return Data(text.utf8)
        }
    }

    /// The files of a report folder by name.
    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }
}
