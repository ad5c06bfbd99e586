/// An error from the OTP module: what went wrong, in words a user can act on.
///
/// Errors are a ``Code`` that callers can match on plus a ``message`` that says what happened
/// and what to do about it. New codes can be added without breaking callers, the same way
/// hummingbird's `PersistError` grows.
///
/// ```swift
/// do {
///     _ = try OTPSecret(base32: "JBSWY3DP1")
/// } catch let error as OTPError where error.code == .invalidBase32 {
///     print(error)   // invalid Base32 character '1' at position 9: ...
/// }
/// ```
public struct OTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases so callers can branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// A Base32 string holds a character outside the alphabet, misplaced padding or a
        /// length no encoder produces.
        public static let invalidBase32 = Code("invalidBase32")
        /// A secret is empty.
        public static let emptySecret = Code("emptySecret")
        /// A digit count outside 6...8.
        public static let invalidDigits = Code("invalidDigits")
        /// A TOTP period that is not a positive number of seconds.
        public static let invalidPeriod = Code("invalidPeriod")
        /// A time before the TOTP start time T0, or so far from it that the step overflows.
        public static let timeOutOfRange = Code("timeOutOfRange")
        /// An `otpauth://` URI that cannot be parsed or written.
        public static let malformedURI = Code("malformedURI")

        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What happened and what to do, ready to show to a user.
    public let message: String

    /// Creates an error from a code and a message that says what happened and what to do.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A sentence for a user; it must never contain secret material.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension OTPError {
    /// A Base32 character outside the RFC 4648 alphabet.
    static func invalidBase32Character(_ character: Character, at position: Int) -> OTPError {
        var message = "invalid Base32 character '\(character)' at position \(position)"
        message += ": Base32 uses only the letters A-Z and the digits 2-7"
        // The digits Base32 leaves out are the ones people confuse with letters.
        switch character {
        case "0": message += " (did you mean the letter 'O'?)"
        case "1": message += " (did you mean the letter 'I' or 'L'?)"
        case "8": message += " (did you mean the letter 'B'?)"
        case "9": message += " (did you mean the letter 'g'?)"
        default: message += "; check the secret was copied exactly"
        }
        return OTPError(code: .invalidBase32, message: message)
    }

    /// Data after the first '=' of the padding.
    static func base32DataAfterPadding(_ character: Character, at position: Int) -> OTPError {
        OTPError(
            code: .invalidBase32,
            message: "invalid Base32: '\(character)' at position \(position) comes after the '=' padding; "
                + "padding may only end the string, so remove the '=' or the characters after it"
        )
    }

    /// A Base32 string whose length no encoder produces.
    static func base32Length(dataCharacters: Int, paddingCharacters: Int) -> OTPError {
        if paddingCharacters > 0 {
            return OTPError(
                code: .invalidBase32,
                message: "invalid Base32: \(paddingCharacters) '=' after \(dataCharacters) characters is not valid "
                    + "padding (it fills only the last group of 8); remove the padding or copy the whole secret again"
            )
        }
        return OTPError(
            code: .invalidBase32,
            message: "invalid Base32: \(dataCharacters) characters cannot be a whole number of bytes "
                + "(a length of 1, 3 or 6 modulo 8 never occurs); the secret is probably truncated"
        )
    }

    /// A secret with no bytes.
    static let emptySecret = OTPError(
        code: .emptySecret,
        message: "the OTP secret is empty; provide the Base32 secret shown when the account was set up"
    )

    /// A digit count outside what RFC 4226 allows.
    static func invalidDigits(_ digits: Int) -> OTPError {
        OTPError(
            code: .invalidDigits,
            message: "\(digits) digits is not supported: one-time passcodes have 6, 7 or 8 digits"
        )
    }

    /// A period that is zero or negative.
    static func invalidPeriod(_ period: Int64) -> OTPError {
        OTPError(
            code: .invalidPeriod,
            message: "a TOTP period of \(period) seconds is not valid: use a positive number of seconds, usually 30"
        )
    }

    /// A malformed `otpauth://` URI; the reason says which part is wrong.
    static func malformedURI(_ reason: String) -> OTPError {
        OTPError(code: .malformedURI, message: "malformed otpauth URI: \(reason)")
    }
}
