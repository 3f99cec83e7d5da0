import Foundation
import GTIOTestSupport
import Testing

/// Inputs a new user gave the console that it mishandled, each pinned with the real binary.
@Suite struct InputFindingsTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    var lines: String {
        ["a", "b", "c"].map {
            #"{"id":"\#($0)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#
        }.joined(separator: "\n") + "\n"
    }

    /// Runs `script` in bash with `gtio` as a function calling the binary.
    func bash(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "gtio() { '\(GTIOBinary.path)' \"$@\"; }; cd '\(folder.path)'; " + script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test func aNamedFIFOIsReadOnceToItsEnd() throws {
        _ = folder.write("feed.jsonl", lines)
        let result = try bash("mkfifo pipe; cat feed.jsonl > pipe & timeout 20 '\(GTIOBinary.path)' ingest pipe --store log.gtio")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("read 3, appended 3, duplicates 0, rejected 0"))
    }

    @Test func processSubstitutionIsReadAndAnEmptyOneIsNamed() throws {
        _ = folder.write("feed.jsonl", lines)
        let result = try bash("gtio ingest <(cat feed.jsonl) --store log.gtio")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("read 3, appended 3"))
        #expect(!result.stderr.contains("empty"))
        let empty = try bash("gtio ingest <(true) --store log.gtio")
        #expect(empty.stderr.contains("no input: nothing to ingest"), "\(empty.stderr)")
    }

    @Test func runKeepsGoingPastAFailingCommandWhereverTheFlagIsWritten() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("feed.jsonl", lines), "--store", store])
        let file = folder.write("commands.txt", "nonsense\nstats --date 2012-04-23 --format csv\n")
        for arguments in [["run", file, "--keep-going"], ["run", "--keep-going", file]] {
            let result = try GTIOBinary.run(arguments + ["--store", store])
            #expect(result.status == 1)
            #expect(result.stdout.contains("2012-04-23,"), "\(arguments): \(result.stdout)")
        }
        #expect(try GTIOBinary.run(["run", file, "--store", store]).stdout.isEmpty)
    }
}
