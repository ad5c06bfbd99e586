import Foundation
import HTTPTypes
import Hummingbird
import Operations
import Store

/// `POST /v1/messages`, `GET /v1/messages/{id}` and `GET /v1/messages`.
extension APIHandlers {
    /// The body of a send.
    struct SendRequest: Decodable {
        var contact: String
        var text: String
        /// The idempotency key, when the client puts it in the body rather than a header.
        var id: String?
    }

    /// Queues the text as `smsgw send` does; 202 with the message and its `Location`; the same
    /// idempotency key with the same body from the same token answers the same message and
    /// queues nothing (another token's key of the same name is its own). A send that queues is
    /// audited (the token, `send`, the contact) in its transaction.
    func send(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .send, audited: .send)
        let body = try await decode(SendRequest.self, from: request, context: context)
        let key = request.headers[.idempotencyKey] ?? body.id
        let started = ContinuousClock.now
        let submission = try await submissions.submit(
            .init(
                text: body.text, contact: body.contact, idempotencyKey: key, token: token.id, actor: .token(token.name),
                address: context.clientAddress))
        if !submission.replayed { metrics.recordQueued(after: ContinuousClock.now - started) }
        var headers: HTTPFields = [.location: "/v1/messages/\(submission.id)"]
        if submission.replayed { headers[.idempotentReplayed] = "true" }
        return try json(submission.message.shown(seeingPaths: token.seesPaths), status: .accepted, headers: headers)
    }

    /// One message with the time it entered each state, its attempts and last error.
    func message(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .read)
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw Problem(status: .notFound, type: "not-found", detail: "A message id is a whole number above 0; no message has that id.")
        }
        let store = store
        let detail = try await blocking { try MessageDetail.read(id: id, store: store) }
        return try json(detail.shown(seeingPaths: token.seesPaths))
    }

    /// A page of messages after a cursor, oldest or newest first, filtered by direction, contact and state.
    func messages(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .read)
        let parameters = request.uri.queryParameters
        var query = MessagePage.Query()
        if let direction = parameters["direction"].map(String.init) {
            guard let value = MessageDirection(rawValue: direction) else {
                throw Problem.badRequest("direction must be in or out, not \"\(direction.prefix(20))\".")
            }
            query.direction = value
        }
        query.contact = parameters["contact"].map(String.init)
        if let state = parameters["state"].map(String.init) {
            guard let value = MessageStatus.known.first(where: { $0.rawValue == state }) else {
                let names = MessageStatus.known.map(\.rawValue).joined(separator: ", ")
                throw Problem.badRequest("state must be one of \(names), not \"\(state.prefix(20))\".")
            }
            query.status = value
        }
        if let after = parameters["after"] {
            guard let cursor = Int64(after), cursor >= 0 else {
                throw Problem.badRequest("after must be a cursor from a previous page's next (a whole number ≥ 0).")
            }
            query.after = cursor
        }
        if let order = parameters["order"].map(String.init) {
            guard let value = MessagePage.Order(rawValue: order) else {
                throw Problem.badRequest("order must be oldest or newest, not \"\(order.prefix(20))\".")
            }
            query.order = value
        }
        if let limit = parameters["limit"] {
            guard let count = Int(limit), (1...MessageLog.pageLimit).contains(count) else {
                throw Problem.badRequest("limit must be a whole number from 1 to \(MessageLog.pageLimit).")
            }
            query.limit = count
        }
        let store = store
        let chosen = query
        let page = try await blocking { try MessageLog.page(chosen, store: store) }
        return try json(page.shown(seeingPaths: token.seesPaths))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}
