import GTIOStore
import GTIOTables
import Hummingbird

/// What a request did wrong, or why the server cannot take it now: each with its HTTP status
/// and a message for the person reading the response.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is not JSON (nor JSON Lines) at all.
    case notJSON(String)
    /// The body is over the per-request limit (after decompression, too).
    case bodyTooLarge(limit: Int)
    /// A content type the collector does not read.
    case unsupportedMediaType(String)
    /// A gzip body that does not decompress.
    case badEncoding(String)
    /// No key, or a key this store does not know (or revoked).
    case unauthorized(String)
    /// A known key of the wrong role.
    case forbidden(String)
    /// The commit queue is full: try again after `retryAfter` seconds.
    case queueFull(retryAfter: Int)
    /// The server is stopping and takes nothing more.
    case shuttingDown
    /// The read models are not loaded yet.
    case notReady(String)
    /// Nothing with that id, or no such route.
    case notFound(String)
    /// A query parameter out of its range.
    case badParameter(String)
    /// A moderator's decision against a version that is no longer current, or an item with
    /// nothing to decide.
    case conflict(String)
    /// The store failed; the request was not applied.
    case storeFailed(String)
    /// The store did not answer (a server restarting, a lost connection): retry shortly.
    case storeUnavailable(String)
    /// The disk under the store is full: nothing was applied, and nothing will be until an
    /// operator frees space.
    case storeFull(String)

    /// A store's error as the answer to a request: unavailable when trying again may work.
    public init(_ error: StoreError) {
        if case .diskFull(let path) = error {
            self = .storeFull(path)
        } else {
            self = error.isUnavailable ? .storeUnavailable("\(error)") : .storeFailed("\(error)")
        }
    }

    public var status: HTTPResponse.Status {
        switch self {
        case .notJSON, .badEncoding, .badParameter: .badRequest
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .queueFull, .shuttingDown, .notReady, .storeUnavailable: .serviceUnavailable
        case .notFound: .notFound
        case .conflict: .conflict
        case .storeFailed: .internalServerError
        case .storeFull: .init(code: 507, reasonPhrase: "Insufficient Storage")
        }
    }

    public var description: String {
        switch self {
        case .notJSON(let why): "the body is not JSON: \(why) (send an event object, an array of them, or JSON Lines as application/x-ndjson)"
        case .bodyTooLarge(let limit): "the body is over the limit of \(limit) bytes per request (after decompression); send fewer events per request"
        case .unsupportedMediaType(let type):
            "content type \"\(type)\" is not read here: send application/json (an event or an array of events) or application/x-ndjson (JSON Lines)"
        case .badEncoding(let why): "the body does not decompress: \(why) (Content-Encoding: gzip needs a gzip body)"
        case .unauthorized(let why): why
        case .forbidden(let why): why
        case .queueFull(let seconds): "the commit queue is full; retry after \(seconds) s"
        case .shuttingDown: "the server is shutting down and takes no more events; retry against another collector or later"
        case .notReady(let why): why
        case .notFound(let why): why
        case .badParameter(let why): why
        case .conflict(let why): why
        case .storeFailed(let why): "the store failed, nothing was applied: \(why)"
        case .storeUnavailable(let why): "the store is unavailable, nothing was applied; retry shortly: \(why)"
        case .storeFull(let path):
            "the disk holding the store (\(path)) is full, nothing was applied; retry later (the server's operator must free space)"
        }
    }
}

extension ServerError: HTTPResponseError {
    /// Seconds a client is asked to wait after a full disk: freeing space takes an operator,
    /// and a collector's clients retrying every second would only fill its logs.
    static let fullRetryAfter = 30

    /// `{"error": "…"}` with the status, and `Retry-After` when trying again later may work.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        switch self {
        case .queueFull(let seconds): headers[.retryAfter] = "\(seconds)"
        case .shuttingDown, .notReady: headers[.retryAfter] = "5"
        case .storeUnavailable: headers[.retryAfter] = "1"
        case .storeFull: headers[.retryAfter] = "\(Self.fullRetryAfter)"
        case .unauthorized: headers[.wwwAuthenticate] = "Bearer"
        default: break
        }
        let body = JSONRenderer.object([("error", .text(description)), ("status", .integer(Int64(status.code)))]) + "\n"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
