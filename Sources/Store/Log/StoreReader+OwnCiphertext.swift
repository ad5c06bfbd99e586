extension StoreReader {
    /// The outgoing message this side sealed as `ciphertext` (one of its SMS), if the log still
    /// holds it: its id and the contact it was for. Ciphertexts are not secret; the log keeps
    /// each outgoing message's, one SMS per line.
    ///
    /// - Parameter ciphertext: One SMS of 160 characters, without spaces or line breaks.
    public func outgoingMessage(sealedAs ciphertext: String) throws -> (id: Int64, contact: String)? {
        let row = try db.row(
            sql: """
                SELECT m.id, c.name FROM messages m JOIN contacts c ON c.id = m.contact_id
                WHERE m.direction = ? AND \(db.dialect.containing("m.ciphertext"))
                ORDER BY m.id DESC LIMIT 1
                """,
            arguments: [MessageDirection.outgoing.rawValue, ciphertext])
        return row.map { (id: $0["id"], contact: $0["name"]) }
    }
}
