import Foundation
import GTIOProjections
import GTIOStore
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// `gtio serve`: the collector, the read API, health, readiness and metrics on one HTTP
/// server, with the commit queue and the read-model projector as services beside it. SIGTERM
/// or SIGINT stops accepting, lets answered requests finish, commits what is queued, brings the
/// read models up to date and returns.
public struct CollectorServer: Sendable {
    public let store: any EventStore
    public let configuration: ServerConfiguration
    public let logLevel: Logger.Level

    public init(store: any EventStore, configuration: ServerConfiguration, logLevel: Logger.Level = .info) {
        self.store = store
        self.configuration = configuration
        self.logLevel = logLevel
    }

    /// Runs until a shutdown signal; `listening` hears the bound address once the server is up.
    public func run(listening: @escaping @Sendable (String, Int) -> Void) async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "gtio.serve")
        let metrics = ServerMetrics()

        let answers = AnswerCache()
        let commits = CommitActivity()
        // Catch-ups give way to commits while the read models are well within the lag /ready
        // allows, and run flat out beyond it.
        let giveWay = LiveReadModels.GiveWay(to: commits, whileBehindLessThan: configuration.maxLag / 2)
        let projector = ReadModelProjector(
            store: store, metrics: metrics, logger: logger, interval: configuration.projectInterval, giveWay: giveWay,
            moved: { answers.forgetPosition() })
        let queue = CommitQueue(
            store: store, capacity: configuration.queueCapacity, wait: configuration.commitWait, metrics: metrics,
            logger: logger, activity: commits, committed: { projector.nudge() })
        let gate = AccessGate(store: store, open: configuration.noAuth)

        let router = Router(context: ServerContext.self)
        router.add(middleware: AccessLogMiddleware())
        router.add(middleware: MetricsMiddleware())
        Collector(configuration: configuration, gate: gate, queue: queue).register(on: router)
        ReadAPI(store: store, gate: gate, projector: projector, cache: answers).register(on: router)
        HealthRoutes(store: store, projector: projector, commits: queue, maxLag: configuration.maxLag, registry: registry).register(on: router)

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "gtio"),
            // Shut down in reverse: the server first (in-flight requests finish), then the
            // queue (commits what it holds), then the read models (apply the last commits).
            services: [projector, queue],
            onServerRunning: { channel in
                listening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: logger)
        do {
            try await app.runService()
        } catch let error as IOError {
            throw ListenError(host: configuration.host, port: configuration.port, errno: error.errnoCode, detail: "\(error)")
        } catch let error as SocketAddressError.UnknownHost {
            throw ListenError(host: configuration.host, port: configuration.port, errno: nil, detail: "\(error)")
        }
    }
}
