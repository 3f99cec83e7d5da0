import ArgumentParser
import Foundation
import GTIOServer
import GTIOStore
import Logging

/// `gtio serve`: the live collector and the JSON read API over HTTP.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Collect events over HTTP (POST /Tracking) and answer the read API (GET /v1/…).",
        discussion: """
            Events go through the same checks, dedup and quarantine as ingest; each request is \
            answered once its events are committed, concurrent requests sharing one commit. \
            Requests need a key (Authorization: Bearer KEY; gtio keys add NAME --role write|read|moderate) \
            unless --no-auth, which only a loopback --bind allows. SIGTERM or SIGINT drains and \
            exits 0. Endpoints: docs/SERVE.md and Events/openapi.yaml.
            Example: gtio serve --port 8080
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address")) var bind = "127.0.0.1"
    @Option(parsing: .unconditional, help: "The port (0: any free port, printed when listening).") var port = 8080
    @Flag(help: "Take requests without a key (only with a loopback --bind).") var noAuth = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Bytes per request body, after decompression.", valueName: "bytes")) var maxBody = 1 << 20
    @Option(parsing: .unconditional, help: ArgumentHelp("Bytes per event; a longer one is rejected on its own.", valueName: "bytes")) var maxEvent = 32 << 10
    @Option(parsing: .unconditional, help: ArgumentHelp("Events that may wait for a commit before requests get 503.", valueName: "events"))
    var queue = 50_000
    @Option(parsing: .unconditional, help: ArgumentHelp("Milliseconds a commit of fewer than 256 events waits for more requests to join it.", valueName: "ms"))
    var commitWait = 2.0
    @Option(parsing: .unconditional, help: ArgumentHelp("Milliseconds between two catch-ups of the read models at most (64 events or fewer are applied at once).", valueName: "ms"))
    var projectInterval = 250.0
    @Option(parsing: .unconditional, help: ArgumentHelp("Events the read models may lag before /ready says not ready; while they lag less than half of it, catch-ups give way to commits.", valueName: "events"))
    var maxLag: Int64 = 100_000
    @Option(help: ArgumentHelp("debug, info (one line per request), warning or error.", valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        var settings = ServerConfiguration()
        settings.host = bind
        if noAuth && !settings.isLoopback {
            throw ValidationError("--no-auth is only allowed with a loopback --bind (127.0.0.1, ::1 or localhost), not \(bind)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535, got \(port)") }
        guard maxBody >= 1024 else { throw ValidationError("--max-body must be at least 1024 bytes, got \(maxBody)") }
        guard maxEvent >= 256 && maxEvent <= maxBody else {
            throw ValidationError("--max-event must be 256 bytes or more and at most --max-body, got \(maxEvent)")
        }
        guard queue >= 1 else { throw ValidationError("--queue must be 1 or more, got \(queue)") }
        guard commitWait >= 0 && commitWait <= 1000 else { throw ValidationError("--commit-wait must be 0–1000 ms, got \(commitWait)") }
        guard projectInterval >= 0 && projectInterval <= 600_000 else {
            throw ValidationError("--project-interval must be 0–600000 ms, got \(projectInterval)")
        }
        guard maxLag >= 0 else { throw ValidationError("--max-lag must be 0 or more, got \(maxLag)") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical, got \(logLevel)")
        }
    }

    func run() throws {
        ResidentMemory.returnLargeBlocks()
        let store: any EventStore
        do {
            store = try storeOptions.openExisting()
        } catch StoreError.missing {
            // Whether a store was there is the backend's to say: a URL is no file to look for.
            store = try storeOptions.open()
            Terminal.writeError("gtio: created a new store at \(store.location)\n")
        }
        try store.checkMayWrite()
        var settings = ServerConfiguration()
        settings.host = bind
        settings.port = port
        settings.noAuth = noAuth
        settings.maxBody = maxBody
        settings.maxEvent = maxEvent
        settings.queueCapacity = queue
        settings.commitWait = commitWait / 1000
        settings.maxLag = maxLag
        settings.projectInterval = projectInterval / 1000
        let server = CollectorServer(store: store, configuration: settings, logLevel: Logger.Level(rawValue: logLevel)!)
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let auth = noAuth ? " (no keys asked: --no-auth)" : ""
        Task {
            do {
                try await server.run { host, port in
                    Terminal.line("gtio: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(auth)")
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        store.settle()
        if let error = outcome.error as? ListenError { throw ConsoleError.failed("\(error)") }
        if let error = outcome.error { throw ConsoleError.failed("serve stopped: \(error)") }
    }
}

/// How the server's task ended, handed back to the waiting main thread.
private final class ServeOutcome: @unchecked Sendable {
    // @unchecked: written by the task before it signals, read by the main thread after waiting.
    var error: (any Error)?
}
