import Foundation
import GTIOTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parent may hand `gtio` a pipe it made non-blocking (an event loop's child processes get
/// such pipes): a long answer waits for the reader rather than stopping at the pipe's 64 KB,
/// and `ingest -` and commands piped into `gtio` wait for the writer rather than failing, or
/// ending, when nothing has come yet.
struct NonBlockingPipeTests {
    let folder = TemporaryDirectory()

    /// A pipe's two ends, the one at `index` made non-blocking as a parent with an event loop makes it.
    private func nonBlockingPipe(end index: Int) -> [Int32] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[index], F_SETFL, fcntl(ends[index], F_GETFL) | O_NONBLOCK) == 0)
        return ends
    }

    /// `gtio arguments` started on these standard streams (an `input` handle is closed here
    /// once the child has it, so that the child alone holds that end).
    private func start(_ arguments: [String], input: FileHandle?, output: Any) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GTIOBinary.path)
        process.arguments = arguments
        if let input { process.standardInput = input }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input?.closeFile()
        (output as? FileHandle)?.closeFile()
        return process
    }

    /// What `arguments` write to standard output through a non-blocking pipe that is read only
    /// once the child has filled it, and its exit status.
    private func runIntoNonBlockingPipe(_ arguments: [String]) throws -> (output: Data, status: Int32) {
        let ends = nonBlockingPipe(end: 1)
        let process = try start(arguments, input: nil, output: FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
        // Read only once the pipe is full (or the child is done): its next write finds no room.
        let deadline = Date().addingTimeInterval(60)
        var waiting: Int32 = 0
        while process.isRunning && Date() < deadline {
            guard ioctl(ends[0], UInt(FIONREAD), &waiting) == 0, waiting < 65_536 else { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.05)
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let output = try reader.readToEnd() ?? Data()
        process.waitUntilExit()
        return (output, process.terminationStatus)
    }

    @Test func aLongAnswerReachesAReaderThatCameLate() throws {
        let demo = folder.path + "/demo.jsonl"
        let store = folder.path + "/events.gtio"
        #expect(try GTIOBinary.run(["demo", "--events", "3000", "--seed", "7", "--out", demo]).status == 0)
        #expect(try GTIOBinary.run(["ingest", demo, "--store", store, "--quiet"]).status == 0)
        let expected = try GTIOBinary.run(["events", "--store", store, "--limit", "3000", "--format", "csv"])
        #expect(expected.stdout.utf8.count > 200_000)
        let late = try runIntoNonBlockingPipe(["events", "--store", store, "--limit", "3000", "--format", "csv"])
        #expect(late.status == 0)
        #expect(late.output.count == expected.stdout.utf8.count)
        #expect(String(decoding: late.output, as: UTF8.self) == expected.stdout)
    }

    /// What `arguments` write to standard output, and their exit status, when their standard
    /// input is a non-blocking pipe that stays empty for a while and then gets `input` in pieces.
    private func runWithLateInput(_ arguments: [String], _ input: String) throws -> (output: String, status: Int32) {
        let ends = nonBlockingPipe(end: 0)
        let answer = Pipe()
        let process = try start(arguments, input: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), output: answer)
        Thread.sleep(forTimeInterval: 0.3)
        // A child that gave up would close the pipe: an error here, not SIGPIPE ending the tests.
        signal(SIGPIPE, SIG_IGN)
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let bytes = Data(input.utf8)
        for start in stride(from: 0, to: bytes.count, by: 50_000) {
            do {
                try writer.write(contentsOf: bytes[start..<min(start + 50_000, bytes.count)])
            } catch {
                Issue.record("the child stopped reading: \(error)")
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        try? writer.close()
        let said = String(decoding: try answer.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        return (said, process.terminationStatus)
    }

    @Test func ingestWaitsForAWriterThatComesLate() throws {
        let lines = try GTIOBinary.run(["demo", "--events", "2000", "--seed", "7"]).stdout
        let ingest = try runWithLateInput(["ingest", "-", "--store", folder.path + "/piped.gtio"], lines)
        #expect(ingest.status == 0)
        // The demo repeats 10 lines on purpose.
        #expect(ingest.output.hasPrefix("read 2000, appended 1990, duplicates 10"), "\(ingest.output)")
    }

    @Test func commandsPipedInAreWaitedFor() throws {
        let store = folder.path + "/commands.gtio"
        let demo = folder.path + "/demo.jsonl"
        #expect(try GTIOBinary.run(["demo", "--events", "2000", "--seed", "7", "--out", demo]).status == 0)
        #expect(try GTIOBinary.run(["ingest", demo, "--store", store, "--quiet"]).status == 0)
        let expected = try GTIOBinary.run(["stats", "--date", "2012-04-23", "--format", "csv", "--store", store]).stdout
        let piped = try runWithLateInput(["--store", store], "stats --date 2012-04-23 --format csv\r\n\nstats --date 2012-04-24 --format csv\n")
        #expect(piped.status == 0)
        #expect(piped.output.hasPrefix(expected), "\(piped.output)")
        #expect(piped.output.contains("\n2012-04-24,"), "\(piped.output)")
    }

    @Test func aDemoLogReachesAReaderThatCameLate() throws {
        let expected = try GTIOBinary.run(["demo", "--events", "3000", "--seed", "7"])
        #expect(expected.stdout.utf8.count > 200_000)
        let late = try runIntoNonBlockingPipe(["demo", "--events", "3000", "--seed", "7"])
        #expect(late.status == 0)
        #expect(String(decoding: late.output, as: UTF8.self) == expected.stdout)
    }
}
