import Foundation

extension OTPAuthURI {
    /// Parses an `otpauth://` URI.
    ///
    /// The rules follow Google Authenticator's Key Uri Format:
    /// - the scheme is `otpauth` and the type `totp` or `hotp` (either in any case);
    /// - the label is percent-encoded `Issuer:account` or `account`, with optional spaces after
    ///   the colon;
    /// - `secret` is required and is Base32; `issuer` must equal the label's issuer if both are
    ///   given; `algorithm` defaults to SHA1, `digits` to 6 and `period` to 30;
    /// - `counter` is required for `hotp`;
    /// - parameters this type does not know (such as `image`) are ignored, but a parameter given
    ///   twice is an error, since the two values could disagree.
    ///
    /// In parameter values `+` is read as a space, as HTML forms and many generators write it.
    /// - Parameter text: The URI.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/malformedURI`` saying which part is wrong,
    ///   or the Base32 error for a bad secret.
    public init(parsing text: String) throws(OTPError) {
        if let index = text.firstIndex(where: { $0 == " " || $0.isNewline }) {
            let position = text.distance(from: text.startIndex, to: index) + 1
            throw OTPError.malformedURI(
                "unencoded whitespace at position \(position); spaces must be written as %20"
            )
        }
        let scheme = "otpauth://"
        guard text.lowercased().hasPrefix(scheme) else {
            throw OTPError.malformedURI("it must start with 'otpauth://', not '\(text.prefix(10))'")
        }
        var rest = text.dropFirst(scheme.count)
        if let hash = rest.firstIndex(of: "#") {
            guard rest[rest.index(after: hash)...].isEmpty else {
                throw OTPError.malformedURI("a fragment ('#...') has no meaning in an otpauth URI; remove it")
            }
            rest = rest[..<hash]
        }

        guard let slash = rest.firstIndex(of: "/") else {
            throw OTPError.malformedURI("the type must be followed by '/' and a label, as in otpauth://totp/alice")
        }
        let type = rest[..<slash].lowercased()
        rest = rest[rest.index(after: slash)...]
        let rawLabel: Substring
        let rawQuery: Substring
        if let question = rest.firstIndex(of: "?") {
            rawLabel = rest[..<question]
            rawQuery = rest[rest.index(after: question)...]
        } else {
            rawLabel = rest
            rawQuery = ""
        }

        let (labelIssuer, account) = try Self.parseLabel(rawLabel)
        let parameters = try Self.parseQuery(rawQuery)

        guard let secretText = parameters["secret"] else {
            throw OTPError.malformedURI("the 'secret' parameter is missing; it holds the Base32 key")
        }
        guard !secretText.isEmpty else {
            throw OTPError.malformedURI("the 'secret' parameter is empty; it must hold the Base32 key")
        }
        let secret = try OTPSecret(base32: secretText)

        var issuer = labelIssuer
        if let parameterIssuer = parameters["issuer"] {
            if let labelIssuer, labelIssuer != parameterIssuer {
                throw OTPError.malformedURI(
                    "the label's issuer '\(labelIssuer)' differs from the issuer parameter '\(parameterIssuer)'; "
                        + "they must be the same"
                )
            }
            issuer = parameterIssuer
        }

        var algorithm = OTPAlgorithm.sha1
        if let name = parameters["algorithm"] {
            guard let named = OTPAlgorithm(name: name) else {
                throw OTPError.malformedURI("unknown algorithm '\(name)'; use SHA1, SHA256 or SHA512")
            }
            algorithm = named
        }

        var digits = 6
        if let text = parameters["digits"] {
            guard let value = Int(text), HOTP.allowedDigits.contains(value) else {
                throw OTPError.malformedURI("digits must be 6, 7 or 8, not '\(text)'")
            }
            digits = value
        }

        let kind: Kind
        switch type {
        case "totp":
            var period = TOTP.defaultPeriod
            if let text = parameters["period"] {
                guard let value = Int64(text), value > 0 else {
                    throw OTPError.malformedURI("period must be a positive number of seconds, not '\(text)'")
                }
                period = value
            }
            kind = .totp(period: period)
        case "hotp":
            guard let text = parameters["counter"] else {
                throw OTPError.malformedURI("an hotp URI needs a 'counter' parameter with the initial counter")
            }
            guard let counter = UInt64(text) else {
                throw OTPError.malformedURI("counter must be a whole number from 0 to 2^64-1, not '\(text)'")
            }
            kind = .hotp(counter: counter)
        case "":
            throw OTPError.malformedURI("the type is missing; write otpauth://totp/... or otpauth://hotp/...")
        default:
            throw OTPError.malformedURI("unknown type '\(type)'; it must be 'totp' or 'hotp'")
        }

        try self.init(
            kind: kind, secret: secret, issuer: issuer, account: account,
            algorithm: algorithm, digits: digits
        )
    }

    /// Splits a raw label into its issuer prefix and account name.
    private static func parseLabel(_ raw: Substring) throws(OTPError) -> (issuer: String?, account: String) {
        guard !raw.isEmpty else {
            throw OTPError.malformedURI("the label is missing; write otpauth://totp/Issuer:account?...")
        }
        guard let label = String(raw).removingPercentEncoding else {
            throw OTPError.malformedURI("the label '\(raw)' has a '%' not followed by two hex digits of UTF-8")
        }
        guard let colon = label.firstIndex(of: ":") else {
            return (nil, label)
        }
        let issuer = String(label[..<colon])
        // The format allows spaces between the colon and the account name.
        let account = String(label[label.index(after: colon)...].drop(while: { $0 == " " }))
        guard !issuer.isEmpty else {
            throw OTPError.malformedURI("the label '\(label)' has a colon but no issuer before it")
        }
        guard !account.isEmpty else {
            throw OTPError.malformedURI("the label '\(label)' has no account name after the issuer")
        }
        guard !account.contains(":") else {
            throw OTPError.malformedURI("the label '\(label)' has more than one colon; only Issuer:account is allowed")
        }
        return (issuer, account)
    }

    /// Splits a raw query into decoded name/value pairs, refusing duplicates.
    private static func parseQuery(_ raw: Substring) throws(OTPError) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw OTPError.malformedURI("the parameter '\(pair)' has no '=' and value")
            }
            let name = pair[..<equals].lowercased()
            let rawValue = pair[pair.index(after: equals)...].replacingOccurrences(of: "+", with: " ")
            guard let value = rawValue.removingPercentEncoding else {
                throw OTPError.malformedURI("the value of '\(name)' has a '%' not followed by two hex digits of UTF-8")
            }
            guard parameters[name] == nil else {
                throw OTPError.malformedURI("the parameter '\(name)' appears more than once")
            }
            parameters[name] = value
        }
        return parameters
    }
}
