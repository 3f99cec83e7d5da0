#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the server could not listen where it was told to, in words for the operator.
public struct ListenError: Error, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The system's error number, when the socket call failed; nil for a host not found.
    public var errno: Int32?
    /// What the network library said.
    public var detail: String

    public var description: String {
        let place = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        switch errno {
        case EADDRINUSE?: return "cannot listen on \(place): another program listens there (pick another --port, or stop that one)"
        case EACCES?: return "cannot listen on \(place): ports below 1024 need privileges (pick a --port of 1024 or more)"
        case EADDRNOTAVAIL?: return "cannot listen on \(place): no network interface of this machine has that address (check --bind)"
        case nil: return "cannot listen on \(place): \(host) is not an address this machine resolves (check --bind; \(detail))"
        default: return "cannot listen on \(place): \(detail)"
        }
    }
}
