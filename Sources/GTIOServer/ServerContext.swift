import Hummingbird
import NIOCore

/// Each request's context: Hummingbird's, plus the peer's address for the quarantine's source.
struct ServerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer as `host:port`, `unknown` when the channel does not say.
    var peer: String {
        guard let remoteAddress else { return "unknown" }
        if let ip = remoteAddress.ipAddress, let port = remoteAddress.port { return "\(ip):\(port)" }
        return "\(remoteAddress)"
    }
}
