import Dispatch
import Foundation
import Gateway
import HTTPTypes
import Hummingbird
import NIOCore
import Operations
import Store

/// What the routes share: the store, the gateway's live status, the throttle of failed
/// authentications and the settings; and the steps every handler takes (authorize, decode,
/// answer JSON). Each handler calls the application layer and renders what it returns.
struct APIHandlers: Sendable {
    let store: UnlockedStore
    let live: LiveStatus
    let settings: HTTPSettings
    let throttle: AuthenticationThrottle
    /// Called after a message was queued, to wake the outbox sender.
    let queued: @Sendable () -> Void
    let version: String
    let metrics: APIMetrics
    /// The sends waiting for their transaction (group commit).
    let submissions: SubmissionQueue
    /// The configured webhook endpoints, for their backlog on the metrics page.
    let webhooks: [WebhookEndpoint]

    /// Store calls block (SQLite, and a write may wait for another process's transaction), so
    /// they run here rather than on Swift's cooperative pool.
    static let storeQueue = DispatchQueue(label: "smsgw.api.store", attributes: .concurrent)

    /// Runs a blocking store call off the cooperative pool.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Self.storeQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// The token of the request when it has `scope`. A missing or failing token counts against
    /// the client's address; a valid one is served even while the address is throttled.
    ///
    /// A change (`audited`, the action a POST asks for) that a valid token without `scope` asks
    /// for is refused with an audit line, as the console's refusals are: actor the token, target
    /// the request's path, outcome `refused`.
    ///
    /// - Throws: ``Operations/APITokenError``: missing or invalid token (401), missing scope
    ///   (403), a missing or failing token from an address with too many failures (429).
    @discardableResult
    func authorize(_ request: Request, _ context: APIContext, _ scope: APIScope, audited: AuditAction? = nil) async throws
        -> APIToken
    {
        let now = Date()
        guard let presented = Self.presentedToken(request) else {
            throw throttle.refusal(.missing, from: context.clientAddress, now: now)
        }
        let store = store
        let token: APIToken
        do {
            token = try await blocking { try APITokens.authenticate(presented, store: store, now: now) }
        } catch let error as APITokenError where error.category == .authentication {
            throw throttle.refusal(error, from: context.clientAddress, now: now)
        }
        guard let action = audited, !token.allows(scope) else { return try token.requiring(scope) }
        let (path, address) = (request.uri.path, context.clientAddress)
        try await blocking {
            try Audit.record(action, by: .token(token.name), target: path, outcome: .refused, address: address, in: store, now: now)
        }
        throw APITokenError.missingScope(scope)
    }

    /// The token of the request's `Authorization: Bearer` header, or nil without one.
    static func presentedToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return nil
        }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// `value` as the CLI's `--json` writes it.
    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try OperationsJSON.encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's JSON body as `T`.
    ///
    /// - Throws: ``Problem`` 400 naming what is wrong; Hummingbird's 413 over the limit.
    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: APIContext) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw ProblemMiddleware.problem(for: .contentTooLarge, request: request)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw Problem.badRequest(Self.sentence(error))
        }
    }

    /// A decoding error as a sentence naming the key or the place.
    static func sentence(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the body" : "\"" + codingPath.map(\.stringValue).joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            let place = context.codingPath.isEmpty ? "The body" : path(context.codingPath)
            return "\(place) lacks the key \"\(key.stringValue)\"; see /v1/openapi.yaml for what the request holds."
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let place = context.codingPath.isEmpty ? "The body" : path(context.codingPath)
            return "\(place) must be \(Self.name(of: type)); see /v1/openapi.yaml."
        case .dataCorrupted(let context):
            let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "The body is not valid JSON\(reason.map { " (\($0))" } ?? ""); send a JSON object."
        @unknown default:
            return "The body could not be read as JSON; send a JSON object."
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "an object of the documented shape"
        }
    }
}
