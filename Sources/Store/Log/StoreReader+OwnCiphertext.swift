extension StoreReader {
    /// How many of the newest outgoing messages ``outgoingMessage(sealedAs:)`` looks through: its
    /// search reads every ciphertext it looks at (no index finds one SMS among a message's
    /// lines), and it runs for each SMS from a contact that does not verify, which anyone who
    /// knows the contact's number can send.
    public static let ownMessageSearchDepth = 10_000

    /// The outgoing message this side sealed as `ciphertext` (one of its SMS), if it is among the
    /// newest ``ownMessageSearchDepth`` outgoing messages the log still holds: its id and the
    /// contact it was for. Ciphertexts are not secret; the log keeps each outgoing message's,
    /// one SMS per line.
    ///
    /// - Parameter ciphertext: One SMS of 160 characters, without spaces or line breaks.
    public func outgoingMessage(sealedAs ciphertext: String) throws -> (id: Int64, contact: String)? {
        let row = try db.row(
            sql: """
                SELECT m.id, c.name FROM (
                    SELECT id, contact_id, ciphertext FROM messages WHERE direction = ? ORDER BY id DESC LIMIT ?
                ) m JOIN contacts c ON c.id = m.contact_id
                WHERE \(db.dialect.containing("m.ciphertext"))
                ORDER BY m.id DESC LIMIT 1
                """,
            arguments: [MessageDirection.outgoing.rawValue, Self.ownMessageSearchDepth, ciphertext])
        return row.map { (id: $0["id"], contact: $0["name"]) }
    }
}
