import Console
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Operations

/// The web console under `/` of the API's listener: a request that is not the API's (`/v1/…`,
/// `/metrics`, `/health/…`) goes to the ``Console/ConsoleController`` as a
/// ``Console/ConsoleRequest``, and its answer is written back as it is; `/events` streams the
/// live log and the modems' events for the console's script, as the API's event stream does.
enum ConsoleRoutes {
    /// Paths that stay the API's when the console serves the rest.
    static let apiPrefixes = ["/v1/", "/metrics", "/health/"]

    static func add(_ controller: ConsoleController, to router: Router<APIContext>, handlers: APIHandlers) {
        let handle: @Sendable (Request, APIContext) async throws -> Response = { request, context in
            let path = request.uri.path
            if path == "/v1" || apiPrefixes.contains(where: { path.hasPrefix($0) }) { throw HTTPError(.notFound) }
            let consoleRequest = try await Self.request(request, context)
            if request.method == .get, path == "/events" {
                return try await Self.events(controller, consoleRequest, request, handlers: handlers)
            }
            let answer = try await handlers.blocking { controller.respond(to: consoleRequest) }
            return Self.response(answer)
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/", method: method, use: handle)
            router.on("/**", method: method, use: handle)
        }
    }

    /// The request as the console reads it; a POST's form is read up to the API's body limit.
    static func request(_ request: Request, _ context: APIContext) async throws -> ConsoleRequest {
        var form: [String: String] = [:]
        if request.method == .post {
            let body = try await request.body.collect(upTo: APIContext.bodyLimit)
            form = ConsoleRequest.formFields(String(buffer: body))
        }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value).removingPercentEncoding ?? String(value) }
        return ConsoleRequest(
            method: request.method.rawValue, path: request.uri.path, query: query, form: form,
            cookies: ConsoleRequest.cookies(request.headers[.cookie]), origin: request.headers[.origin],
            fetchSite: request.headers[HTTPField.Name("Sec-Fetch-Site")!],
            host: request.head.authority ?? request.headers[HTTPField.Name("Host")!],
            address: context.clientAddress)
    }

    static func response(_ answer: ConsoleResponse) -> Response {
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
    }

    /// The live log for a signed-in viewer, after `Last-Event-ID` or from now: the API's stream
    /// (log changes as `message`, and the modem and contact events, which the page shows as
    /// banners, a viewer's without the modems' errors). The session is read again before each
    /// event: the stream ends with the session, and follows a change of its operator's role.
    static func events(_ controller: ConsoleController, _ consoleRequest: ConsoleRequest, _ request: Request, handlers: APIHandlers)
        async throws -> Response
    {
        let store = handlers.store
        guard try await handlers.blocking({ controller.signedInRole(consoleRequest) }) != nil else {
            return Response(status: .unauthorized)
        }
        let last = request.headers[.lastEventID].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let position = try await handlers.blocking {
            try last.map { try EventStream.position(after: $0, store: store) } ?? EventStream.latest(store: store)
        }
        let events = EventStream.since(position, store: store)
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await APIHandlers.forward(events, to: &writer) {
                    (try? await handlers.blocking { controller.liveRole(consoleRequest) }).flatMap { $0 }
                        .map { APIHandlers.Reader(seeingPaths: $0.seesPaths) }
                }
                try await writer.finish(nil)
            })
    }
}
