import SMSCipher

/// How a typed payload this version keeps without acting on it is written to the log: its kind and
/// body as text (the log encrypts it), and a note saying why nothing else happened.
enum TypedRecord {
    /// `kind 100: 000102037f`: the kind's number and the body's septets in hexadecimal.
    static func text(of payload: TypedPayload) -> String {
        "kind \(payload.kind.rawValue): " + payload.body.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The note for the log row.
    static func note(for payload: TypedPayload) -> String {
        guard payload.kind.isKnown else {
            return
                "A typed message (\(payload.kind)) that this version keeps without acting on it; a newer version of the contact's gateway sent it."
        }
        return "A typed message (\(payload.kind)) whose body breaks the rules of its kind; kept without acting on it."
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
