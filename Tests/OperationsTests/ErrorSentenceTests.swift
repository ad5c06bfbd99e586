import Foundation
import OTP
import Operations
import Testing

/// The application layer's errors speak to every front end: one sentence that says what to do,
/// a category, and no command or option of the CLI.
@Suite("Error sentences")
struct ErrorSentenceTests {
    static let errors: [any Error & CustomStringConvertible] = [
        AccountError.noAccount(directory: "/data"), AccountError.accountExists(directory: "/data"),
        AccountError.codeRequired, AccountError.twoFactorAlreadyOn, AccountError.enrolmentCodeMismatch,
        AccountError.twoFactorUnreadable,
        OTPEntryError.reservedName("smsgw-login"),
        OTPEntryError.invalid(OTPError(code: .malformedURI, message: "malformed otpauth URI: no secret")),
        OTPEntryError.parametersWithURI, OTPEntryError.timeForCounterEntry("bank"), OTPEntryError.counterExhausted("bank"),
        OTPEntryError.unreadable("bank"), OTPEntryError.stateUnreadable("bank"), OTPEntryError.codeRejected("bank"),
        OTPEntryError.codeReplayed("bank"),
        OTPEntryError.throttled("bank", until: Date(timeIntervalSince1970: 100), now: Date(timeIntervalSince1970: 90)),
        MaintenanceError.noDatabase(path: "/data/smsgw.sqlite"), MaintenanceError.negativeAge(days: -1),
    ]

    @Test("Each is one sentence with advice and names no front-end command or option")
    func neutralSentences() {
        for error in Self.errors {
            let sentence = error.description
            // A sentence may open with a quoted name.
            #expect(sentence.first.map { $0.isUppercase || $0 == "\"" } == true && sentence.hasSuffix("."), "\(sentence)")
            if case OTPEntryError.invalid = error {
            } else {
                #expect(sentence.contains(";"), "no advice: \(sentence)")
            }
            #expect(!sentence.contains("smsgw ") && !sentence.contains("`") && !sentence.contains(" --"), "\(sentence)")
        }
    }

    @Test("The throttled sentence counts whole seconds from the caller's clock")
    func throttledSeconds() {
        let error = OTPEntryError.throttled("bank", until: Date(timeIntervalSince1970: 100), now: Date(timeIntervalSince1970: 90.5))
        #expect(error.description.contains("(in 10 seconds)"))
    }
}
