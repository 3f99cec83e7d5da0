import Foundation
import GTIOTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parent may hand `gtio` a pipe it made non-blocking (an event loop's child processes get
/// such pipes): a long answer waits for the reader rather than stopping at the pipe's 64 KB.
struct NonBlockingOutputTests {
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

    @Test func aDemoLogReachesAReaderThatCameLate() throws {
        let expected = try GTIOBinary.run(["demo", "--events", "3000", "--seed", "7"])
        #expect(expected.stdout.utf8.count > 200_000)
        let late = try runIntoNonBlockingPipe(["demo", "--events", "3000", "--seed", "7"])
        #expect(late.status == 0)
        #expect(String(decoding: late.output, as: UTF8.self) == expected.stdout)
    }
}
