import Store

/// What a request asks for, and the least role that may ask it.
enum ConsoleRoute: Equatable {
    case log
    case message(Int64)
    case status
    case contacts
    case sendForm
    case admin
    case send
    case retry(Int64)
    /// Every SMS counted as unconfirmed now, marked as checked with the contacts.
    case checkUnconfirmed
    /// The SMS of one message waiting for a confirmation, marked as checked with the contact.
    case checkMessage(Int64)
    case resync(String)
    case acceptResync(String)
    case rejectResync(String)
    case addOperator
    case setRole(String)
    case removeOperator(String)
    case createToken
    case revokeToken(String)
    case redeliver(Int64)

    init?(_ request: ConsoleRequest) {
        let segments = request.segments
        switch (request.method, segments.count) {
        case ("GET", 0): self = .log
        case ("GET", 1):
            switch segments[0] {
            case "status": self = .status
            case "contacts": self = .contacts
            case "send": self = .sendForm
            case "admin": self = .admin
            default: return nil
            }
        case ("GET", 2) where segments[0] == "log":
            guard let id = Int64(segments[1]) else { return nil }
            self = .message(id)
        case ("POST", 1) where segments[0] == "send": self = .send
        case ("POST", 3) where segments == ["status", "unconfirmed", "checked"]: self = .checkUnconfirmed
        case ("POST", 3) where segments[0] == "log" && segments[2] == "checked":
            guard let id = Int64(segments[1]) else { return nil }
            self = .checkMessage(id)
        case ("POST", 2) where segments == ["admin", "operators"]: self = .addOperator
        case ("POST", 2) where segments == ["admin", "tokens"]: self = .createToken
        case ("POST", 4) where segments[0] == "admin" && segments[1] == "tokens" && segments[3] == "revoke":
            self = .revokeToken(segments[2])
        case ("POST", 4) where segments[0] == "admin" && segments[1] == "deliveries" && segments[3] == "redeliver":
            guard let id = Int64(segments[2]) else { return nil }
            self = .redeliver(id)
        case ("POST", 3) where segments[0] == "outbox" && segments[2] == "retry":
            guard let id = Int64(segments[1]) else { return nil }
            self = .retry(id)
        case ("POST", 3) where segments[0] == "contacts":
            switch segments[2] {
            case "resync": self = .resync(segments[1])
            case "accept": self = .acceptResync(segments[1])
            case "reject": self = .rejectResync(segments[1])
            default: return nil
            }
        case ("POST", 4) where segments[0] == "admin" && segments[1] == "operators":
            switch segments[3] {
            case "role": self = .setRole(segments[2])
            case "remove": self = .removeOperator(segments[2])
            default: return nil
            }
        default: return nil
        }
    }

    /// The least role that may ask it (checked on the server for every request).
    var role: OperatorRole {
        switch self {
        case .log, .message, .status, .contacts: .viewer
        case .sendForm, .send, .retry, .checkUnconfirmed, .checkMessage, .resync, .acceptResync, .rejectResync: .operator
        case .admin, .addOperator, .setRole, .removeOperator, .createToken, .revokeToken, .redeliver: .admin
        }
    }
}
