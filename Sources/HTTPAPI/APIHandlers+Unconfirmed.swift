import Foundation
import HTTPTypes
import Hummingbird
import Operations

/// `POST /v1/status/unconfirmed/checked` and `POST /v1/messages/{id}/checked`: sent SMS never
/// confirmed, marked as checked with the contact (``Operations/GatewayStatus/Unconfirmed/markChecked(_:by:address:store:now:)``).
extension APIHandlers {
    /// How many SMS a mark of checked marked.
    struct CheckedAnswer: Encodable {
        var checked: Int
    }

    /// Marks every SMS the status counts as unconfirmed now as checked, as `smsgw log checked --all` does.
    func checkUnconfirmed(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .admin, audited: .unconfirmedChecked)
        return try await markChecked(.all, token: token, context: context)
    }

    /// Marks one message's unconfirmed SMS as checked, as `smsgw log checked ID` does.
    func checkMessage(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .admin, audited: .unconfirmedChecked)
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw Problem(status: .notFound, type: "not-found", detail: "A message id is a whole number above 0; no message has that id.")
        }
        return try await markChecked(.message(id), token: token, context: context)
    }

    private func markChecked(_ scope: GatewayStatus.Unconfirmed.CheckedScope, token: APIToken, context: APIContext) async throws
        -> Response
    {
        let (store, address) = (store, context.clientAddress)
        let count = try await blocking {
            try GatewayStatus.Unconfirmed.markChecked(scope, by: .token(token.name), address: address, store: store, now: Date())
        }
        return try json(CheckedAnswer(checked: count))
    }
}
