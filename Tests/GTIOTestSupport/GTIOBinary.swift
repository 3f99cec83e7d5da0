import Foundation

/// Runs the real `gtio` executable that `swift build` put beside the test bundle.
public enum GTIOBinary {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The `gtio` executable in the same build products folder as this test process.
    public static var path: String {
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testExecutable.deletingLastPathComponent()
        // On Linux the tests run from `<products>/gtio-consolePackageTests.xctest`.
        while !folder.path.isEmpty && folder.path != "/" {
            let candidate = folder.appendingPathComponent("gtio").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("gtio executable not found near \(testExecutable.path); run swift build first")
    }

    /// Runs `gtio arguments…` with `input` on standard input and waits for it.
    @discardableResult
    public static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: String? = nil
    ) throws -> Output {
        try run(executable: path, arguments, input: input, environment: environment, directory: directory)
    }

    /// Runs another program as `run` runs `gtio` (a script that drives it, say): `GTIO_STORE`
    /// unset, the two outputs read apart.
    @discardableResult
    public static func run(
        executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: String? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["GTIO_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        // The input is written and the error output read on threads of their own while this one
        // reads the output: a child that fills one pipe while its parent waits on another (a long
        // input read after a long answer, say, or pages of warnings) would otherwise wait forever.
        let writer = PipeThread { [input] in
            if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
            try? stdin.fileHandleForWriting.close()
            return Data()
        }
        let errors = PipeThread { stderr.fileHandleForReading.readDataToEndOfFile() }
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.wait()
        _ = writer.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `gtio arguments…` on a thread of its own and returns at once; the closure returned
    /// waits for its output. For a test that acts while the command runs: a `Task` would start
    /// it only when the cooperative pool has a thread free, which on two busy cores can be late.
    public static func launch(_ arguments: [String], environment: [String: String] = [:]) -> @Sendable () throws -> Output {
        final class Finished: @unchecked Sendable {
            // @unchecked: written once before `done` is signalled, read after.
            var output: Swift.Result<Output, any Error>?
        }
        let result = Finished(), done = DispatchSemaphore(value: 0)
        Thread {
            result.output = Swift.Result { try run(arguments, environment: environment) }
            done.signal()
        }.start()
        return {
            done.wait()
            done.signal()
            return try result.output!.get()
        }
    }

    /// Starts `gtio arguments…` without waiting, for crash and race tests: its standard output
    /// goes to the file `output` (created) when given, else is discarded like its errors, which
    /// `withErrors` sends to the same file, in the order they are written.
    public static func start(_ arguments: [String], output: String? = nil, withErrors: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        if let output {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            // One open file for both: they share its offset, so neither writes over the other.
            let file = FileHandle(forWritingAtPath: output)
            process.standardOutput = file
            if withErrors { process.standardError = file }
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// A thread that runs one piece of pipe work and hands back its bytes.
private final class PipeThread: @unchecked Sendable {
    // @unchecked: `data` is written once before `done` is signalled and read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> Data) {
        Thread { [self] in
            data = work()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
