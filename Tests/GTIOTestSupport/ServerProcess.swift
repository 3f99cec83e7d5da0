import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `gtio serve` on a free loopback port, and plain HTTP requests to it.
public final class ServerProcess: @unchecked Sendable {
    // @unchecked: `process` is started in init and only signalled or waited on afterwards.
    public let process: Process
    public let port: Int
    public let stderrFile: String
    private let session: URLSession

    /// One answer: status, headers (lowercased names) and body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object or array.
        public var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
    }

    /// Starts `gtio serve --store STORE --port 0 extra…` and waits until it listens.
    /// - Parameter launcher: a command and its arguments that run the server in turn and exec
    ///   it (so that the process is the server's), such as `setpriv …`.
    public init(store: String, _ extra: [String] = [], folder: String, launcher: [String] = []) throws {
        let process = Process()
        let command = launcher + [GTIOBinary.path, "serve", "--store", store, "--port", "0"] + extra
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env["GTIO_STORE"] = nil
        process.environment = env
        let stdout = Pipe()
        stderrFile = folder + "/serve-\(UUID().uuidString.prefix(6)).log"
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: stderrFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The first line of standard output names the port.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let host = text.range(of: "http://127.0.0.1:"),
              let port = Int(text[host.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw ServerProcessError(message: "gtio serve did not say where it listens: \(text) \(String(decoding: FileManager.default.contents(atPath: stderrFile) ?? Data(), as: UTF8.self))")
        }
        self.port = port
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 64
        session = URLSession(configuration: configuration)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Sends one request and returns the answer.
    public func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var lowered: [String: String] = [:]
        for (name, value) in http.allHeaderFields { lowered["\(name)".lowercased()] = "\(value)" }
        return Reply(status: http.statusCode, headers: lowered, body: data)
    }

    /// POSTs `body` to /Tracking with `key` and `contentType`.
    public func post(_ body: String, key: String?, contentType: String = "application/x-ndjson", path: String = "/Tracking") async throws -> Reply {
        var headers = ["Content-Type": contentType]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        return try await request("POST", path, headers: headers, body: Data(body.utf8))
    }

    /// Whether `/ready` answered 200 within `seconds`: the read models loaded and current enough.
    /// The default is generous: under the whole suite the machine's cores are busy with other tests.
    public func becomesReady(within seconds: Double = 120) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            // The last look comes after the deadline: a test that the suite kept from running
            // (its task waiting for one of the few threads of the cooperative pool) past the
            // deadline still asks the server once, rather than give up on a server long ready.
            let late = Date() >= deadline
            if try await request("GET", "/ready").status == 200 { return true }
            if late { return false }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Sends `signal` and waits for the exit status.
    public func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server wrote to standard error (its JSON log lines).
    public var log: String { String(decoding: FileManager.default.contents(atPath: stderrFile) ?? Data(), as: UTF8.self) }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
