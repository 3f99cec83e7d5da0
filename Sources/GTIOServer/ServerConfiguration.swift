/// How `gtio serve` listens, what it accepts and how it groups commits.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (printed when listening).
    public var port = 8080
    /// Bytes per request body, after decompression.
    public var maxBody = 1 << 20
    /// Bytes per event; a longer one is rejected on its own.
    public var maxEvent = 32 << 10
    /// Events that may wait for a commit; past it requests get 503 and Retry-After.
    public var queueCapacity = 50_000
    /// Seconds the writer waits after a first request for others to share its commit.
    public var commitWait = 0.002
    /// Seconds between two catch-ups of the read models at most once.
    public var projectInterval = 0.25
    /// Events the read models may lag behind the log before /ready says not ready.
    public var maxLag: Int64 = 100_000
    /// Accept requests without a key (loopback binds only).
    public var noAuth = false

    public init() {}

    /// Whether `host` is a loopback address, where `noAuth` is allowed.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
