import OTP
import SplitMix
import Testing

/// `otpauth://` URIs both ways, following the Google Authenticator Key Uri Format.
struct OTPAuthURITests {
    /// URIs already in the canonical form that ``OTPAuthURI/string`` writes.
    static let canonical = [
        "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30",
        "otpauth://hotp/alice?secret=GEZDGNBVGY3TQOJQ&algorithm=SHA512&digits=8&counter=18446744073709551615",
        "otpauth://totp/Example:alice%2Bsms@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA256&digits=7&period=60",
        "otpauth://totp/Z%C3%BCrich%20Bank:%2B41%2079%20123%2045%2067?secret=JBSWY3DP&issuer=Z%C3%BCrich%20Bank&algorithm=SHA1&digits=6&period=1",
        "otpauth://hotp/smsgw:ops?secret=MZXW6YTBOI&issuer=smsgw&algorithm=SHA1&digits=6&counter=0",
    ]

    @Test("Canonical URIs survive parse then write unchanged", arguments: canonical)
    func canonicalRoundTrip(_ text: String) throws {
        let uri = try OTPAuthURI(parsing: text)
        #expect(uri.string == text)
        #expect(try OTPAuthURI(parsing: uri.string) == uri)
    }

    @Test("The Key Uri Format example reads with its defaults")
    func googleExample() throws {
        let uri = try OTPAuthURI(parsing: "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example")
        #expect(uri.kind == .totp(period: 30))
        #expect(uri.issuer == "Example")
        #expect(uri.account == "alice@google.com")
        #expect(uri.algorithm == .sha1)
        #expect(uri.digits == 6)
        #expect(uri.secret.base32 == "JBSWY3DPEHPK3PXP")
        #expect(uri.label == "Example:alice@google.com")
        #expect(
            uri.string == "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6&period=30"
        )
        #expect(uri.url != nil)
    }

    /// Non-canonical spellings and the canonical string each must be written as.
    static let lenient: [(input: String, written: String)] = [
        // Case of scheme, type and algorithm; lower-case padded secret; encoded colon.
        (
            "OTPAUTH://TOTP/Example%3Aalice?secret=jbswy3dp&algorithm=sha-256&issuer=Example",
            "otpauth://totp/Example:alice?secret=JBSWY3DP&issuer=Example&algorithm=SHA256&digits=6&period=30"
        ),
        // Spaces after the colon, issuer only in the label.
        (
            "otpauth://totp/Example:%20%20alice?secret=JBSWY3DP",
            "otpauth://totp/Example:alice?secret=JBSWY3DP&issuer=Example&algorithm=SHA1&digits=6&period=30"
        ),
        // Issuer only as a parameter, written with '+' for a space; unknown parameters ignored.
        (
            "otpauth://totp/alice?issuer=ACME+Co&secret=JBSWY3DP&image=https%3A%2F%2Fx.example%2Fa.png",
            "otpauth://totp/ACME%20Co:alice?secret=JBSWY3DP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30"
        ),
        // Padding in the secret, a trailing empty fragment, HOTP counter.
        (
            "otpauth://hotp/bob?secret=MZXW6YQ%3D&counter=42#",
            "otpauth://hotp/bob?secret=MZXW6YQ&algorithm=SHA1&digits=6&counter=42"
        ),
    ]

    @Test("Lenient spellings parse and are written canonically", arguments: lenient)
    func lenientParsing(_ example: (input: String, written: String)) throws {
        let uri = try OTPAuthURI(parsing: example.input)
        #expect(uri.string == example.written)
        #expect(try OTPAuthURI(parsing: uri.string) == uri)
    }

    /// Malformed URIs and a phrase the error must contain.
    static let malformed: [(input: String, expected: String)] = [
        ("https://totp/alice?secret=JBSWY3DP", "must start with 'otpauth://'"),
        ("otpauth://totp/alice", "'secret' parameter is missing"),
        ("otpauth://totp/alice?secret=", "'secret' parameter is empty"),
        ("otpauth://motp/alice?secret=JBSWY3DP", "unknown type 'motp'"),
        ("otpauth:///alice?secret=JBSWY3DP", "type is missing"),
        ("otpauth://totp", "followed by '/' and a label"),
        ("otpauth://totp/?secret=JBSWY3DP", "label is missing"),
        ("otpauth://hotp/alice?secret=JBSWY3DP", "needs a 'counter'"),
        ("otpauth://hotp/alice?secret=JBSWY3DP&counter=-1", "counter must be a whole number"),
        ("otpauth://hotp/alice?secret=JBSWY3DP&counter=18446744073709551616", "counter must be a whole number"),
        ("otpauth://totp/Foo:alice?secret=JBSWY3DP&issuer=Bar", "differs from the issuer parameter"),
        ("otpauth://totp/alice?secret=JBSWY3DP&algorithm=MD5", "unknown algorithm 'MD5'"),
        ("otpauth://totp/alice?secret=JBSWY3DP&digits=5", "digits must be 6, 7 or 8"),
        ("otpauth://totp/alice?secret=JBSWY3DP&digits=six", "digits must be 6, 7 or 8"),
        ("otpauth://totp/alice?secret=JBSWY3DP&period=0", "period must be a positive number"),
        ("otpauth://totp/alice?secret=JBSWY3DP&period=-30", "period must be a positive number"),
        ("otpauth://totp/alice?secret=JBSWY3DP&secret=MZXW6YTB", "appears more than once"),
        ("otpauth://totp/alice?secret=JBSWY3DP&digits", "has no '='"),
        ("otpauth://totp/Issuer:?secret=JBSWY3DP", "no account name"),
        ("otpauth://totp/:alice?secret=JBSWY3DP", "no issuer before it"),
        ("otpauth://totp/A:B:C?secret=JBSWY3DP", "more than one colon"),
        ("otpauth://totp/a%ZZb?secret=JBSWY3DP", "'%' not followed by two hex digits"),
        ("otpauth://totp/alice smith?secret=JBSWY3DP", "unencoded whitespace at position 21"),
        ("otpauth://totp/alice?secret=JBSWY3DP#part", "fragment"),
        ("otpauth://totp/alice?secret=JBSWY3DP&issuer=", "issuer is empty"),
    ]

    @Test("Malformed URIs throw an error saying what is wrong", arguments: malformed)
    func malformedURI(_ example: (input: String, expected: String)) {
        let error = #expect(throws: OTPError.self) { try OTPAuthURI(parsing: example.input) }
        #expect(error?.code == .malformedURI)
        #expect(error?.description.contains(example.expected) == true, "\(error?.description ?? "no error")")
    }

    @Test("A bad secret reports the Base32 problem")
    func badSecret() {
        let error = #expect(throws: OTPError.self) { try OTPAuthURI(parsing: "otpauth://totp/alice?secret=JBSWY3D1") }
        #expect(error?.code == .invalidBase32)
        #expect(error?.description.contains("'1' at position 8") == true)
    }

    @Test("Names the label cannot carry are refused when writing")
    func invalidNames() throws {
        let secret = try OTPSecret(base32: "JBSWY3DP")
        for (issuer, account) in [("A:B", "alice"), (nil, "a:b"), (nil, ""), ("ACME", " alice"), ("", "alice")] as [(String?, String)] {
            let error = #expect(throws: OTPError.self) {
                try OTPAuthURI(kind: .totp(period: 30), secret: secret, issuer: issuer, account: account)
            }
            #expect(error?.code == .malformedURI)
        }
    }

    @Test("Generators convert to URIs and back")
    func generators() throws {
        let secret = OTPSecret.random()
        let totp = try TOTP(secret: secret, algorithm: .sha512, digits: 8, period: 45)
        let uri = try OTPAuthURI(totp: totp, issuer: "smsgw", account: "+15551234567")
        let parsed = try OTPAuthURI(parsing: uri.string)
        #expect(parsed.totp == totp)
        #expect(parsed.hotp == totp.hotp)
        #expect(!uri.description.contains(secret.base32))

        let hotp = try HOTP(secret: secret, algorithm: .sha256, digits: 7)
        let hotpURI = try OTPAuthURI(hotp: hotp, counter: 9, issuer: nil, account: "ops")
        #expect(try OTPAuthURI(parsing: hotpURI.string).kind == .hotp(counter: 9))
        #expect(hotpURI.totp == nil)

        let shifted = try TOTP(secret: secret, startTime: 10)
        #expect(throws: OTPError.self) { try OTPAuthURI(totp: shifted, issuer: nil, account: "a") }
    }

    @Test("Random URIs survive write then parse (seeded)")
    func randomRoundTrip() throws {
        var random = SplitMix64.replayable("otpauth round trip")
        let alphabet = Array("abcXYZ019 -._~@+&=?/%#éü中🔑!$'()*,;[]")
        func name(_ random: inout SplitMix64) -> String {
            var text = String((0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            while text.first == " " { text.removeFirst() }
            return text.isEmpty ? "x" : text
        }
        for _ in 0..<300 {
            let kind: OTPAuthURI.Kind =
                Bool.random(using: &random)
                ? .totp(period: Int64.random(in: 1...86_400, using: &random))
                : .hotp(counter: UInt64.random(in: 0...UInt64.max, using: &random))
            let secret = try OTPSecret(
                bytes: (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            let uri = try OTPAuthURI(
                kind: kind, secret: secret,
                issuer: Bool.random(using: &random) ? name(&random) : nil,
                account: name(&random),
                algorithm: OTPAlgorithm.allCases.randomElement(using: &random)!,
                digits: Int.random(in: 6...8, using: &random)
            )
            let parsed = try OTPAuthURI(parsing: uri.string)
            #expect(parsed == uri, "\(uri.string)")
            #expect(parsed.string == uri.string)
        }
    }
}
