import Metrics

/// The collector's own figures for `/metrics`, beside the per-request ones Hummingbird's
/// `MetricsMiddleware` records: what was appended, how commits group, how far behind the read
/// models are.
struct ServerMetrics: Sendable {
    let appended = Counter(label: "gtio_events_appended_total")
    let duplicates = Counter(label: "gtio_events_duplicate_total")
    let rejected = Counter(label: "gtio_events_rejected_total")
    /// Events per commit: how much each transaction (and its fsync) carried.
    let commitEvents = Recorder(label: "gtio_commit_events", aggregate: true)
    /// Requests per commit.
    let commitRequests = Recorder(label: "gtio_commit_requests", aggregate: true)
    let commitDuration = Timer(label: "gtio_commit_duration")
    /// Events waiting for the next commit.
    let queueDepth = Gauge(label: "gtio_queue_events")
    /// Requests turned away with 503 because the queue was full.
    let queueRefusals = Counter(label: "gtio_queue_refusals_total")
    /// Events in the log that the read models have not applied yet.
    let readModelLag = Gauge(label: "gtio_read_model_lag_events")
    /// Catch-ups that waited so long for a core under the idle policy that they were moved to
    /// the background priority (`StarvationGuard`): other work kept the cores busy.
    let starvedCatchUps = Counter(label: "gtio_read_model_starved_catch_ups_total")
}
