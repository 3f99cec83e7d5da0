import Foundation
import GTIOStore
import Hummingbird
import Logging

/// One log line per request once it is answered: method, path, status, milliseconds and the
/// peer; the request id is already in the logger's metadata (`hb.request.id`). A store's error
/// that reaches it becomes the `ServerError` that says it to the client.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, started: started)
            return response
        } catch let error as StoreError {
            // A read that met the store's failure answers with its words, and 503 when a retry may work.
            let answer = ServerError(error)
            log(request, context, status: answer.status.code, started: started, error: "\(error)")
            throw answer
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context, status: status, started: started, error: "\(error)")
            throw error
        }
    }

    private func log(_ request: Request, _ context: ServerContext, status: Int, started: UInt64, error: String? = nil) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
            "ms": "\((ms * 100).rounded() / 100)", "peer": "\(context.peer)",
        ]
        if let error { metadata["error"] = "\(error)" }
        context.logger.info("request", metadata: metadata)
    }
}
