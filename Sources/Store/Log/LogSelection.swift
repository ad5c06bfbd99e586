/// Which logged messages a listing or the change feed holds: all of them, or those of one
/// contact, one direction and one status (any of the three, together).
public struct LogSelection: Sendable, Hashable {
    /// Only this contact's messages, or nil for all.
    public var contact: Contact?
    /// Only this direction, or nil for both.
    public var direction: MessageDirection?
    /// Only this status, or nil for any: for a listing the message's status now, for the change
    /// feed the status the change put it in.
    public var status: MessageStatus?

    public init(contact: Contact? = nil, direction: MessageDirection? = nil, status: MessageStatus? = nil) {
        self.contact = contact
        self.direction = direction
        self.status = status
    }

    /// Every message.
    public static let all = LogSelection()

    /// The SQL conditions on `messages m` and their arguments; the status is compared with
    /// `statusColumn` (`m.status`, or an event's).
    func conditions(statusColumn: String) -> (sql: [String], arguments: StoreArguments) {
        var sql: [String] = []
        var arguments: StoreArguments = []
        if let direction {
            sql.append("m.direction = ?")
            arguments += [direction.rawValue]
        }
        if let contact {
            sql.append("m.contact_id = ?")
            arguments += [contact.id.storeString]
        }
        if let status {
            sql.append("\(statusColumn) = ?")
            arguments += [status.rawValue]
        }
        return (sql, arguments)
    }
}
