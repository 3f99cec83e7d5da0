import Hummingbird

/// Refuses a read without a read key (401) before its route runs.
struct ReadKeyCheck: RouterMiddleware {
    let gate: AccessGate

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        try gate.check(request, needs: .read)
        return try await next(request, context)
    }
}
