import Console
import Foundation
import HTTPTypes
import Hummingbird
import Operations

/// The API's routes; a path answers 405 (with `Allow`) for a method it does not serve.
enum APIRoutes {
    typealias Handler = @Sendable (Request, APIContext) async throws -> Response

    /// A handler of ``APIHandlers``, picked out of them.
    typealias Pick = @Sendable (APIHandlers) -> Handler

    /// Every path with the methods it serves (docs/openapi.yaml describes each).
    static let table: [(path: String, methods: [(HTTPRequest.Method, Pick)])] = [
        ("/v1/messages", [(.post, { $0.send }), (.get, { $0.messages })]),
        ("/v1/messages/{id}", [(.get, { $0.message })]),
        ("/v1/messages/{id}/checked", [(.post, { $0.checkMessage })]),
        ("/v1/contacts", [(.get, { $0.contacts })]),
        ("/v1/contacts/{name}", [(.get, { $0.contact })]),
        ("/v1/contacts/{name}/resync", [(.post, { $0.resync })]),
        ("/v1/status", [(.get, { $0.status })]),
        ("/v1/status/unconfirmed/checked", [(.post, { $0.checkUnconfirmed })]),
        ("/v1/events", [(.get, { $0.eventStream })]),
        ("/v1/openapi.yaml", [(.get, { $0.openAPI })]),
        ("/metrics", [(.get, { $0.metricsPage })]),
        ("/health/live", [(.get, { $0.liveness })]),
        ("/health/ready", [(.get, { $0.readiness })]),
    ]

    static func router(_ handlers: APIHandlers, console: ConsoleController? = nil) -> Router<APIContext> {
        let router = Router(context: APIContext.self)
        router.add(middleware: ProblemMiddleware())
        for (path, served) in table {
            for (method, pick) in served {
                let handler = pick(handlers)
                router.on(RouterPath(path), method: method) { request, context in try await handler(request, context) }
            }
        }
        if let console { ConsoleRoutes.add(console, to: router, handlers: handlers) }
        return router
    }

    /// The methods the path takes (`{name}` segments match any segment), or nil for a path the
    /// API does not have: a request the router found nothing for is 405 or 404 by this.
    static func methods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for (pattern, served) in table {
            let parts = pattern.split(separator: "/")
            guard parts.count == segments.count else { continue }
            if zip(parts, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) { return served.map(\.0) }
        }
        return nil
    }
}

extension APIHandlers {
    /// The OpenAPI description of this API (docs/openapi.yaml).
    func openAPI(_ request: Request, _ context: APIContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
    }

    /// The Prometheus page; needs the metrics scope (or read, which includes it).
    func metricsPage(_ request: Request, _ context: APIContext) async throws -> Response {
        try await authorize(request, context, .metrics)
        let live = live
        let (store, webhooks) = (store, webhooks)
        let (status, figures) = try await blocking {
            (try live.read(now: Date()), try store.read { try APIMetrics.figures(from: $0, webhooks: webhooks) })
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(string: metrics.page(status: status, figures: figures, arrivals: live.arrivals.snapshot()))))
    }
}
