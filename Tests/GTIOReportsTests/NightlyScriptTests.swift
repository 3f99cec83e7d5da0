import Foundation
import GTIOTestSupport
import Testing

/// `scripts/nightly.sh` as cron runs it: ingests the inbox, writes the report, keeps a log,
/// refuses a second run while one holds the lock.
@Suite(.serialized) struct NightlyScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/nightly.sh").standardized.path
    let folder = TemporaryDirectory()

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.script] + arguments
        var env = ProcessInfo.processInfo.environment
        env["GTIO"] = GTIOBinary.path
        env["GTIO_STORE"] = folder.file("log.gtio")
        env["GTIO_REPORTS"] = folder.file("Reports")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    func inbox() throws -> String {
        let inbox = folder.file("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        _ = folder.write("inbox/2012-04-23.jsonl", """
            {"id":"1","type":"user.signed_up","at":"2012-04-23T10:00:00Z","user":"ann","data":{"provider":"google","name":"Ann"}}
            {"id":"2","type":"post.created","at":"2012-04-23T11:00:00Z","user":"ann","data":{"post":"p1","kind":"outfit","voting":true}}

            """)
        _ = folder.write("inbox/2012-04-24.jsonl", """
            {"id":"3","type":"post.hearted","at":"2012-04-24T09:00:00Z","user":"bob","data":{"post":"p1"}}

            """)
        return inbox
    }

    @Test func ingestsTheInboxWritesTheReportAndKeepsALog() throws {
        let inbox = try inbox()
        let result = try run([inbox])
        #expect(result.status == 0, "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: folder.file("Reports/2012-04-23/index.html")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox) == ["done"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox + "/done").sorted() == ["2012-04-23.jsonl", "2012-04-24.jsonl"])
        let log = try String(contentsOfFile: folder.file("Reports/nightly.log"), encoding: .utf8)
        #expect(log.contains("ingested \(inbox)/2012-04-23.jsonl"))
        #expect(log.contains("report written to \(folder.file("Reports"))"))
        #expect(log.contains("nightly run finished with exit code 0"))
    }

    @Test func rejectedInputAndFailuresGiveNonZeroExitCodes() throws {
        let inbox = try inbox()
        _ = folder.write("inbox/2012-04-25.jsonl", "{\"id\":\"4\",\"type\":\"nonsense\"}\n")
        #expect(try run([inbox]).status == 3)
        #expect(try run([inbox, "--date", "2011-01-01"]).status == 1)  // no report outside the log
        #expect(try run([folder.file("nowhere")]).status == 2)
    }

    @Test func aSecondRunWaitsForNoOneAndSaysWhy() throws {
        let inbox = try inbox()
        try FileManager.default.createDirectory(atPath: folder.file("Reports"), withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [folder.file("Reports/.nightly.lock"), "sleep", "10"]
        try holder.run()
        defer { holder.terminate() }
        var held = false
        for _ in 0..<100 where !held {
            // flock(1) creates the lock file, then holds it: wait until another taker is refused.
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            probe.arguments = ["-n", folder.file("Reports/.nightly.lock"), "true"]
            try probe.run()
            probe.waitUntilExit()
            held = probe.terminationStatus != 0
            if !held { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(held)
        let result = try run([inbox])
        #expect(result.status == 75)
        #expect(result.output.contains("another nightly run holds"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox).sorted() == ["2012-04-23.jsonl", "2012-04-24.jsonl"])
    }
}
