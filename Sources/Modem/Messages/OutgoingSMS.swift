import GSM7

/// One SMS to submit, validated: exactly one GSM-7 SMS (DCS 0, no UDH), to a plausible number.
struct OutgoingSMS: Sendable {
    let number: String
    /// The text re-derived from ``septets``, so libgammu sees each septet's canonical character.
    let text: String
    let septets: [UInt8]
    let statusReport: Bool

    /// Validates text and number.
    /// - Throws: ``ModemError/Code/invalidMessage`` or ``ModemError/Code/invalidNumber``.
    init(text: String, number: String, statusReport: Bool) throws(ModemError) {
        let septets: [UInt8]
        do {
            septets = try GSM7.septets(for: text)
        } catch {
            throw ModemError(.invalidMessage, "The text cannot be sent as one GSM-7 SMS. \(error.description)")
        }
        guard septets.count <= GSM7.septetsPerSMS else {
            throw ModemError(
                .invalidMessage,
                "The text is \(septets.count) septets (extension characters count 2); one SMS holds \(GSM7.septetsPerSMS). Shorten it; smsgw never splits a message."
            )
        }
        let canonical: String
        do {
            canonical = try GSM7.text(from: septets)
        } catch {
            throw ModemError(.invalidMessage, "The text cannot be sent as one GSM-7 SMS. \(error.description)")
        }
        let trimmed = number.trimmingWhitespace
        let digits = trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ModemError(
                .invalidNumber, "\"\(number)\" is not a phone number. Use digits with an optional leading +, for example +4915112345678.")
        }
        self.number = trimmed
        self.text = canonical
        self.septets = septets
        self.statusReport = statusReport
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
