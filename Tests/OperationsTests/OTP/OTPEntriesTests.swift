import Foundation
import OTP
import Operations
import SplitMix
import Store
import TestSupport
import Testing

/// The OTP domain on top of the store (``OTPEntries``): known answers from RFC 4226 and RFC 6238,
/// counters and verification state committed with each code, the reserved login name.
@Suite("OTP entries")
struct OTPEntriesTests {
    /// "12345678901234567890", the RFC 4226 and RFC 6238 (SHA-1) test secret.
    static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test("TOTP codes are RFC 6238's at the given time, and a time is refused for HOTP")
    func totpKnownAnswers() throws {
        try TestStore.withAccount { _, _, store in
            var rng = SplitMix64(seed: 1)
            let request = OTPEnrolmentRequest(source: .base32(Self.rfcSecret), digits: 8)
            try OTPEntries.add(request, named: "rfc", to: store, using: &rng)
            for (time, code) in [(59.0, "94287082"), (1_111_111_109, "07081804"), (2_000_000_000, "69279037")] {
                #expect(try OTPEntries.code(named: "rfc", in: store, at: Date(timeIntervalSince1970: time), now: Self.now) == code)
            }
            try OTPEntries.add(
                OTPEnrolmentRequest(source: .base32(Self.rfcSecret), kind: .hotp(counter: nil)), named: "counter", to: store, using: &rng)
            #expect(throws: OTPEntryError.timeForCounterEntry("counter")) {
                _ = try OTPEntries.code(named: "counter", in: store, at: Self.now, now: Self.now)
            }
        }
    }

    @Test("HOTP codes are RFC 4226's and each one moves the stored counter on")
    func hotpKnownAnswers() throws {
        try TestStore.withAccount { directory, _, store in
            var rng = SplitMix64(seed: 2)
            try OTPEntries.add(
                OTPEnrolmentRequest(source: .base32(Self.rfcSecret), kind: .hotp(counter: 1)), named: "hotp", to: store, using: &rng)
            #expect(try OTPEntries.code(named: "hotp", in: store, at: nil, now: Self.now) == "287082")
            #expect(try OTPEntries.code(named: "hotp", in: store, at: nil, now: Self.now) == "359152")
            // Another process sees the counter where this one left it.
            let again = try directory.open().unlock(passphrase: TestStore.passphrase)
            #expect(try OTPEntries.code(named: "hotp", in: again, at: nil, now: Self.now) == "969429")
            #expect(try OTPEntries.list(in: again).first?.counter == 4)
        }
    }

    @Test("verify accepts a code once, refuses its replay and wrong codes, then throttles; the state is committed")
    func verifyCommitsState() throws {
        try TestStore.withAccount { directory, _, store in
            var rng = SplitMix64(seed: 3)
            try OTPEntries.add(OTPEnrolmentRequest(source: .base32(Self.rfcSecret)), named: "login", to: store, using: &rng)
            let code = try OTPEntries.code(named: "login", in: store, at: nil, now: Self.now)
            try OTPEntries.verify(code, named: "login", in: store, now: Self.now)
            let reopened = try directory.open().unlock(passphrase: TestStore.passphrase)
            #expect(throws: OTPEntryError.codeReplayed("login")) {
                try OTPEntries.verify(code, named: "login", in: reopened, now: Self.now + 1)
            }

            // A slip of the fingers (too short, a letter) says so, and is not counted as a failure.
            for slip in ["12", "12345a", "1234567"] {
                let refused = #expect(throws: OTPEntryError.self) {
                    try OTPEntries.verify(slip, named: "login", in: reopened, now: Self.now + 2)
                }
                #expect(refused == .malformedCode("login", digits: 6, length: slip.count), "\(String(describing: refused))")
                #expect(refused?.description.contains("is 6 digits") == true && refused?.description.contains(slip) == false)
            }

            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            var failures: [OTPEntryError] = []
            for _ in 0..<4 {
                do {
                    try OTPEntries.verify(wrong, named: "login", in: reopened, now: Self.now + 2)
                } catch let error as OTPEntryError {
                    failures.append(error)
                }
            }
            #expect(failures.prefix(2).allSatisfy { $0 == .codeRejected("login") })
            let last = try #require(failures.last)
            #expect(last.category == .locked, "\(failures)")
            #expect(last.description.contains("try again after"))
        }
    }

    @Test("list shows parameters, never secrets, with every key in its JSON; uri round-trips through add")
    func listAndURI() throws {
        try TestStore.withAccount { _, _, store in
            var rng = SplitMix64(seed: 4)
            let generated = try OTPEntries.add(
                OTPEnrolmentRequest(source: .generated, algorithm: .sha256, issuer: "ACME"), named: "first", to: store, using: &rng)
            #expect(generated.uri.secret.byteCount == 32)
            #expect(generated.uri.string.hasPrefix("otpauth://totp/ACME:first?"))
            let uri = try OTPEntries.uri(named: "FIRST", in: store)
            #expect(uri == generated.uri)
            try OTPEntries.add(OTPEnrolmentRequest(source: .typed(uri.string)), named: "copy", to: store, using: &rng)
            #expect(
                try OTPEntries.code(named: "copy", in: store, at: Self.now, now: Self.now)
                    == OTPEntries.code(named: "first", in: store, at: Self.now, now: Self.now))

            let entries = try OTPEntries.list(in: store)
            #expect(entries.map(\.name) == ["copy", "first"])
            #expect(
                entries[1].algorithm == "sha256" && entries[1].period == 30 && entries[1].counter == nil && entries[1].account == "first")
            let json = try OperationsJSON.string(entries)
            #expect(json.contains("\"counter\":null") && json.contains("\"issuer\":\"ACME\""))
            #expect(!json.contains(uri.secret.base32))

            try OTPEntries.remove(named: "copy", from: store)
            #expect(throws: StoreError.self) { _ = try OTPEntries.code(named: "copy", in: store, at: nil, now: Self.now) }
        }
    }

    @Test("A URI with parameters beside it, and a bad secret, are refused as invalid input")
    func refusedRequests() throws {
        try TestStore.withAccount { _, _, store in
            var rng = SplitMix64(seed: 5)
            let uri = "otpauth://totp/x?secret=\(Self.rfcSecret)"
            #expect(throws: OTPEntryError.parametersWithURI) {
                try OTPEntries.add(OTPEnrolmentRequest(source: .uri(uri), digits: 8), named: "x", to: store, using: &rng)
            }
            #expect(throws: OTPEntryError.self) {
                try OTPEntries.add(OTPEnrolmentRequest(source: .base32("GEZ1")), named: "x", to: store, using: &rng)
            }
            #expect(
                OTPEntryError.invalid(OTPError(code: .emptySecret, message: "the OTP secret is empty")).description
                    == "The OTP secret is empty.")
            let listed = try OTPEntries.list(in: store)
            #expect(listed.isEmpty)
            #expect(OTPEnrolmentRequest.Source.typed("OTPAUTH://totp/x") == .uri("OTPAUTH://totp/x"))
            #expect(OTPEnrolmentRequest.Source.typed("JBSWY3DP") == .base32("JBSWY3DP"))
        }
    }

    @Test("No spelling of the reserved login name reaches any operation")
    func reservedName() throws {
        try TestStore.withAccount { _, _, store in
            var rng = SplitMix64(seed: 6)
            for name in ["smsgw-login", " SMSGW-Login", "Smsgw-login\t", "ＳＭＳＧＷ－ＬＯＧＩＮ"] {
                let refused = OTPEntryError.reservedName(name)
                #expect(throws: refused) { try OTPEntries.requireUserName(name) }
                #expect(throws: refused) {
                    try OTPEntries.add(OTPEnrolmentRequest(source: .generated), named: name, to: store, using: &rng)
                }
                #expect(throws: refused) { _ = try OTPEntries.code(named: name, in: store, at: nil, now: Self.now) }
                #expect(throws: refused) { try OTPEntries.verify("123456", named: name, in: store, now: Self.now) }
                #expect(throws: refused) { _ = try OTPEntries.uri(named: name, in: store) }
                #expect(throws: refused) { try OTPEntries.remove(named: name, from: store) }
            }
            try OTPEntries.requireUserName("smsgw-login2")
        }
    }
}
