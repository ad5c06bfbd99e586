import Failures
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Operations

/// An error as the API answers it: `application/problem+json` (RFC 9457) with a sentence a
/// person can act on.
///
/// Its JSON is `{"type","title","status","detail"}`; `type` is `urn:smsgw:problem:<category>`.
struct Problem: Error, Sendable {
    var status: HTTPResponse.Status
    var type: String
    var detail: String
    var headers: HTTPFields = [:]

    init(status: HTTPResponse.Status, type: String, detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.type = type
        self.detail = detail
        self.headers = headers
    }

    /// The problem for an error of the application layer, with `Retry-After` where waiting helps
    /// and `WWW-Authenticate` for a missing or wrong token.
    init(_ error: any CategorizedError, now: Date = Date()) {
        self.init(status: HTTPResponse.Status(error.httpCategory), type: error.httpCategory.slug, detail: error.description)
        if let seconds = error.httpCategory.retryAfter { headers[.retryAfter] = "\(seconds)" }
        if case APITokenError.throttled(let until) = error {
            headers[.retryAfter] = "\(max(1, Int(until.timeIntervalSince(now).rounded(.up))))"
        }
        if error.category == .authentication { headers[.wwwAuthenticate] = "Bearer" }
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, type: "malformed-request", detail: detail)
    }

    /// The JSON body.
    var body: ByteBuffer {
        let body: [String: any Sendable] = [
            "type": "urn:smsgw:problem:\(type)", "title": status.reasonPhrase, "status": status.code, "detail": detail,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return ByteBuffer(bytes: data)
    }

    /// The headers: ``headers`` and the content type.
    var fields: HTTPFields {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return fields
    }

    /// The response: the JSON body and the headers.
    func response() -> Response {
        Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
    }
}

/// Turns every error a route throws into a problem response: the application layer's by its
/// category, Hummingbird's (no such route, a body over the limit) by their status, anything else
/// as 500 with the details in the daemon's log only. A request whose bytes stopped making HTTP,
/// or ended before its body did (its client went, or its deadline answered 408 and closed the
/// connection: ``RequestDeadline``), is no fault of the gateway's: its error goes back to
/// Hummingbird, which answers 400 and closes the connection where one is left, and logs nothing.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response()
        } catch let error as any CategorizedError {
            if error.httpStatus >= 500 {
                context.logger.error("An API request failed.", metadata: ["smsgw.error": "\(error)"])
            }
            return Problem(error).response()
        } catch let error as HTTPError {
            return Self.problem(for: error.status, request: request).response()
        } catch let error as HTTPParserError {
            throw error
        } catch {
            context.logger.error("An API request failed unexpectedly.", metadata: ["smsgw.error": "\(error)"])
            return Problem(
                status: .internalServerError, type: "internal",
                detail: "The gateway could not answer this request; its log says why, so check it or report the problem."
            ).response()
        }
    }

    static func problem(for status: HTTPResponse.Status, request: Request) -> Problem {
        switch status {
        case .notFound:
            if let methods = APIRoutes.methods(for: request.uri.path) {
                let allowed = methods.map(\.rawValue).joined(separator: ", ")
                return Problem(
                    status: .methodNotAllowed, type: "method-not-allowed",
                    detail: "\(request.uri.path.prefix(200)) does not take \(request.method.rawValue.prefix(20)); it takes \(allowed).",
                    headers: [.allow: allowed])
            }
            return Problem(
                status: .notFound, type: "not-found",
                detail: "Nothing is at \(request.uri.path.prefix(200)); see /v1/openapi.yaml for the API's paths.")
        case .contentTooLarge:
            return Problem(
                status: .contentTooLarge, type: "too-large",
                detail: "The body is over \(APIContext.bodyLimit / 1024) KiB; a message's text fits in far less, so send less.")
        default:
            return Problem(status: status, type: "http", detail: "The request could not be served (\(status.code) \(status.reasonPhrase)).")
        }
    }
}
