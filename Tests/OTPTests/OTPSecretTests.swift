import OTP
import Testing

/// The secret wrapper: Base32 entry, random generation and redaction.
struct OTPSecretTests {
    @Test("A secret decodes from Base32 and encodes back without padding")
    func base32RoundTrip() throws {
        let secret = try OTPSecret(base32: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq")
        #expect(secret.bytes == Array("12345678901234567890".utf8))
        #expect(secret.base32 == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(try OTPSecret(base32: "MY======").base32 == "MY")
    }

    @Test("An empty or all-padding secret is refused", arguments: ["", "   ", "========"])
    func emptySecret(_ text: String) {
        let error = #expect(throws: OTPError.self) { try OTPSecret(base32: text) }
        #expect(error?.code == .emptySecret || error?.code == .invalidBase32)
        #expect(error?.description.isEmpty == false)
    }

    @Test("Random secrets have the requested length and differ")
    func random() {
        #expect(OTPSecret.random().byteCount == 20)
        #expect(OTPSecret.random(byteCount: 64).byteCount == 64)
        #expect(OTPSecret.random(byteCount: 4).byteCount == 16)
        #expect(OTPSecret.random() != OTPSecret.random())
    }

    @Test("Descriptions never show the key")
    func redaction() throws {
        let secret = try OTPSecret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        for text in [secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret)] {
            #expect(!text.contains("GEZD"))
            #expect(!text.contains("1234"))
            #expect(text.contains("redacted"))
        }
    }
}
