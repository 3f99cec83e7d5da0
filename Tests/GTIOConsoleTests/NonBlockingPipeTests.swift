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
/// and `ingest -` waits for the writer rather than failing when nothing has come yet.
struct NonBlockingPipeTests {
    let folder = TemporaryDirectory()

    /// What `arguments` write to standard output through a non-blocking pipe that is read only
    /// once the child has filled it, and its exit status.
    private func runIntoNonBlockingPipe(_ arguments: [String]) throws -> (output: Data, status: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GTIOBinary.path)
        process.arguments = arguments
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        process.standardError = FileHandle.nullDevice
        try process.run()
        (process.standardOutput as? FileHandle)?.closeFile()
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

    @Test func ingestWaitsForAWriterThatComesLate() throws {
        let lines = try GTIOBinary.run(["demo", "--events", "2000", "--seed", "7"]).stdout
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GTIOBinary.path)
        process.arguments = ["ingest", "-", "--store", folder.path + "/piped.gtio"]
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let answer = Pipe()
        process.standardOutput = answer
        process.standardError = FileHandle.nullDevice
        try process.run()
        (process.standardInput as? FileHandle)?.closeFile()
        // Nothing to read for a while, then the lines in pieces.
        Thread.sleep(forTimeInterval: 0.3)
        // A child that gave up would close the pipe: an error here, not SIGPIPE ending the tests.
        signal(SIGPIPE, SIG_IGN)
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let bytes = Data(lines.utf8)
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
        #expect(process.terminationStatus == 0)
        #expect(said.hasPrefix("read 2000, appended 1990, duplicates 10"), "\(said)")  // the demo repeats 10 lines on purpose
    }

    @Test func aDemoLogReachesAReaderThatCameLate() throws {
        let expected = try GTIOBinary.run(["demo", "--events", "3000", "--seed", "7"])
        #expect(expected.stdout.utf8.count > 200_000)
        let late = try runIntoNonBlockingPipe(["demo", "--events", "3000", "--seed", "7"])
        #expect(late.status == 0)
        #expect(String(decoding: late.output, as: UTF8.self) == expected.stdout)
    }
}
